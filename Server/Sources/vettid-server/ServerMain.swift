import ArgumentParser
import VettIDCLI

@main
extension ServerToolCommand {}
