// swift-tools-version: 6.2
//
// libFuzzer target for the NATS protocol decoder. Build and run with scripts/fuzz-nats-decoder
// (swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library).

import PackageDescription

let package = Package(
    name: "VettIDFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "NATSDecoderFuzzer",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "NATSClient", package: "main"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        )
    ]
)
