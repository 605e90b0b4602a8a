import ArgumentParser
import VettIDCLI

@main
extension VettIDCommand {}
