public import NIOCore

/// One client-to-server operation, for ``NATSProtocolEncoder``.
///
/// The connection's hot path does not build these: it writes with the `ByteBuffer` methods directly.
public enum NATSClientCommand: Sendable, Equatable {
    /// `CONNECT {json}`.
    case connect(NATSConnectOptions)
    /// `PUB`, or `HPUB` when headers are present.
    case publish(subject: String, replyTo: String?, headers: NATSHeaders?, payload: ByteBuffer)
    /// `SUB subject [queue] sid`.
    case subscribe(subject: String, queue: String?, sid: UInt64)
    /// `UNSUB sid [max]`.
    case unsubscribe(sid: UInt64, max: Int?)
    /// `PING`.
    case ping
    /// `PONG`.
    case pong
}

/// A `MessageToByteEncoder` for ``NATSClientCommand``.
public struct NATSProtocolEncoder: MessageToByteEncoder, Sendable {
    /// The command to encode.
    public typealias OutboundIn = NATSClientCommand

    /// Creates an encoder.
    public init() {}

    /// Writes `data` in wire format.
    public func encode(data: NATSClientCommand, out: inout ByteBuffer) throws {
        out.writeNATSCommand(data)
    }
}
