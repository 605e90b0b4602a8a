import ArgumentParser
import VettIDCLI

await VettIDCommand.main()
