// libFuzzer entry point: feeds arbitrary bytes to NATSProtocolDecoder, whole and split in two at a
// position taken from the input. A thrown NATSProtocolError is the expected outcome for garbage; a crash,
// a hang or an inconsistent result between the two feeds is a bug.

import CFuzzerDriver
import NATSClient
import NIOCore

/// SwiftPM links Linux executables with `main` renamed to `<module>_main`; hand control to libFuzzer.
@_cdecl("NATSDecoderFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        guard let data else { return 0 }
        return fuzz(UnsafeRawPointer(data), size)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let whole = decodeAll(ByteBuffer(bytes: bytes), splitAt: nil)
    let split = decodeAll(ByteBuffer(bytes: bytes), splitAt: count == 0 ? 0 : Int(bytes[0]) % (count + 1))
    precondition(whole == split, "decoding depends on how the input is fragmented")
    return 0
}

/// Decodes everything; returns the operations and whether it stopped on an error.
func decodeAll(_ input: ByteBuffer, splitAt: Int?) -> [String] {
    var pending = ByteBuffer()
    var results: [String] = []
    var chunks: [ByteBuffer] = [input]
    if let splitAt {
        chunks = [input.getSlice(at: 0, length: splitAt)!, input.getSlice(at: splitAt, length: input.readableBytes - splitAt)!]
    }
    for var chunk in chunks {
        pending.writeBuffer(&chunk)
        do {
            while let operation = try NATSProtocolDecoder.parse(&pending, maxControlLine: 1024, maxPayload: 1 << 16) {
                results.append("\(operation)")
            }
        } catch {
            results.append("error \(error.code)")
            return results
        }
    }
    return results
}
