/// How long each phase of a HAR entry took, in milliseconds; `-1` where a phase does not apply
/// (as browsers write for a reused connection's `dns` and `connect`).
package struct HARTimings: Sendable, Hashable {
    /// Time in a queue before the request went out, or `nil`.
    package var blocked: Double?
    /// DNS resolution, or `nil`.
    package var dns: Double?
    /// Connecting (TLS included), or `nil`.
    package var connect: Double?
    /// Sending the request.
    package var send: Double
    /// Waiting for the response head.
    package var wait: Double
    /// Receiving the body.
    package var receive: Double
    /// The TLS handshake, or `nil`.
    package var ssl: Double?
    /// A comment, or `nil`.
    package var comment: String?
    /// Fields whose names start with `_` (Chromium's `_blocked_queueing`, `_workerStart` …).
    package var custom: [String: HARValue]

    /// Creates timings.
    package init(
        blocked: Double? = nil, dns: Double? = nil, connect: Double? = nil, send: Double = 0, wait: Double = 0,
        receive: Double = 0, ssl: Double? = nil, comment: String? = nil, custom: [String: HARValue] = [:]
    ) {
        self.blocked = blocked
        self.dns = dns
        self.connect = connect
        self.send = send
        self.wait = wait
        self.receive = receive
        self.ssl = ssl
        self.comment = comment
        self.custom = custom
    }
}

extension HARTimings: Codable {
    /// Reads timings; a missing `send`, `wait` or `receive` reads as 0.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            blocked: try container.optional("blocked"),
            dns: try container.optional("dns"),
            connect: try container.optional("connect"),
            send: try container.optional("send") ?? 0,
            wait: try container.optional("wait") ?? 0,
            receive: try container.optional("receive") ?? 0,
            ssl: try container.optional("ssl"),
            comment: try container.optional("comment"),
            custom: try container.custom()
        )
    }

    /// Writes the timings, custom members included.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeCustom(custom)
        try container.encodeIfPresent(blocked, forKey: "blocked")
        try container.encodeIfPresent(dns, forKey: "dns")
        try container.encodeIfPresent(connect, forKey: "connect")
        try container.encode(send, forKey: "send")
        try container.encode(wait, forKey: "wait")
        try container.encode(receive, forKey: "receive")
        try container.encodeIfPresent(ssl, forKey: "ssl")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
