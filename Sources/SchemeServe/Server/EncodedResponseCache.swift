// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import NIOHTTP1
    import SchemeKit

    /// Immediate answers as they last went out on one event loop, by representation: the HTTP head
    /// (header fields converted once, its `Date` refreshed once a second) and the body in a buffer
    /// NIO writes as it is.
    ///
    /// The key is the answer's ``SchemeKit/SchemeCollectedResponse/representationID`` (a cached
    /// file's head and body in one coding: equal ids are equal answers) with what the HTTP side adds
    /// from the request (version, keep-alive, the `Origin` CORS echoes). So a browser loading the
    /// same script on any connection of the loop gets it with no header conversion and no copy;
    /// a file that changes gets a new id, and its old entries age out.
    ///
    /// It also keeps whole responses under the exact bytes of the request heads that asked for them
    /// (``Answer``), for ``RepeatedRequestHandler`` to answer a repeat before any HTTP decoding.
    ///
    /// `@unchecked Sendable`: each instance is confined to its event loop (`PerEventLoop` hands a
    /// connection the one of its loop); it is only created elsewhere.
    final class EncodedResponseCache: @unchecked Sendable {
        struct Key: Hashable {
            var representation: UInt64
            /// Which `--header` rules applied (``ResponsePlanner/Rules/key``).
            var rules: UInt64
            var major: Int
            var minor: Int
            var keepAlive: Bool
            /// The request's `Origin`, when the server echoes allowed origins (CORS), else `nil`.
            var origin: String?
        }

        struct Entry {
            var head: HTTPResponseHead
            var body: ByteBuffer?
            var date: String
        }

        /// The most bytes of bodies kept per event loop.
        static let byteLimit = 8 << 20
        /// The most entries kept per event loop.
        static let countLimit = 4096

        /// A response kept under the request that asked for it, both as they went over the wire:
        /// the request's head byte for byte (request line and every header field, in order), and
        /// the response as NIO's encoder wrote it (head and body in one buffer). Kept only for an
        /// answer that depends on nothing but that request and one file (``validator``). A class:
        /// a hit hands out one reference, not a copy of every field.
        final class Answer {
            /// The request head, from its first byte to the blank line that ends it.
            let request: ByteBuffer
            /// The response, ready for the socket.
            fileprivate(set) var response: ByteBuffer
            /// Where the `Date` value (29 bytes, an IMF-fixdate) sits in ``response``.
            let dateIndex: Int
            /// The `Date` value now in ``response``.
            fileprivate(set) var date: String
            /// The file the answer was made from, as it was.
            let validator: FileIdentityCheck
            /// Whether the response closes the connection (`Connection: close`).
            let closes: Bool
            /// What the access log says of a repeat.
            let log: AccessLog.Line

            init(
                request: ByteBuffer, response: ByteBuffer, dateIndex: Int, date: String,
                validator: FileIdentityCheck, closes: Bool, log: AccessLog.Line
            ) {
                self.request = request
                self.response = response
                self.dateIndex = dateIndex
                self.date = date
                self.validator = validator
                self.closes = closes
                self.log = log
            }

            /// The bytes it holds.
            var size: Int { request.readableBytes + response.readableBytes }
        }

        private var entries = BoundedTable<Key, Entry>(
            byteLimit: EncodedResponseCache.byteLimit, countLimit: EncodedResponseCache.countLimit,
            size: { $0.body?.readableBytes ?? 0 })
        private var answers = BoundedTable<Int, Answer>(
            byteLimit: EncodedResponseCache.byteLimit, countLimit: EncodedResponseCache.countLimit, size: \.size)
        /// The `Date` value, computed at most once a second for the loop.
        var dates = HTTPDateCache()

        /// The entry for `key`, its `Date` made current.
        func entry(_ key: Key) -> Entry? {
            guard var entry = entries[key] else { return nil }
            if refreshDate(&entry) { entries.store(entry, for: key) }
            return entry
        }

        /// The answer kept for exactly this request head (`request`'s readable bytes), when the file
        /// it was made from is unchanged (one `lstat`), its `Date` made current.
        ///
        /// Only answers that depend on nothing but the request and one file are kept (see
        /// ``SchemeKit/FileIdentityCheck``), and the key is the request's every byte, so a hit is
        /// the answer the whole path (HTTP parsing, Host check, guard, `--header` rules, handler
        /// chain, plan, encoding) would give again.
        func answer(forRequest request: ByteBuffer) -> Answer? {
            let hash = Self.hash(request)
            guard let answer = answers[hash], answer.request == request else { return nil }
            guard answer.validator.isCurrent() else {
                answers.remove(hash)
                return nil
            }
            let date = dates.now()
            if date != answer.date, date.utf8.count == answer.date.utf8.count {
                answer.response.setString(date, at: answer.response.readerIndex + answer.dateIndex)
                answer.date = date
            }
            return answer
        }

        /// Keeps `answer` under its request (within ``byteLimit`` and ``countLimit``, see
        /// ``BoundedTable``).
        func store(_ answer: Answer) {
            answers.store(answer, for: Self.hash(answer.request))
        }

        private static func hash(_ request: ByteBuffer) -> Int {
            var hasher = Hasher()
            request.withUnsafeReadableBytes { hasher.combine(bytes: $0) }
            return hasher.finalize()
        }

        /// Puts the current `Date` into `entry`'s head; `true` when it changed.
        private func refreshDate(_ entry: inout Entry) -> Bool {
            let date = dates.now()
            guard date != entry.date else { return false }
            entry.date = date
            entry.head.headers.replaceOrAdd(name: "date", value: date)
            return true
        }

        /// Keeps `entry` under `key` (within ``byteLimit`` and ``countLimit``, see ``BoundedTable``).
        func store(_ entry: Entry, for key: Key) {
            entries.store(entry, for: key)
        }
    }
#endif
