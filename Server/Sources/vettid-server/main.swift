import VettIDCLI
print(VettIDCLIInfo.serverName)
