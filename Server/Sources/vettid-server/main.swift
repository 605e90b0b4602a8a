import ArgumentParser
import VettIDCLI

await ServerToolCommand.main()
