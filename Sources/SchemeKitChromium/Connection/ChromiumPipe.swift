#if Chromium
    import CSchemeKitChromiumShims
    import Dispatch
    import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport

    /// The byte level of a DevTools pipe: one socket to Chromium's fds 3 and 4, a reader thread that
    /// frames and decodes messages, and a serial queue that writes them.
    ///
    /// A dedicated thread reads because a blocking `read` must not hold a thread of Swift's
    /// cooperative pool (two threads on two cores). The reader ends with exactly one `onClose` call,
    /// at end of file, on a read error, on a message it cannot parse, or on one longer than
    /// ``maximumIncomingMessageSize``.
    final class ChromiumPipe: ChromiumTransport {
        let format: ChromiumWireFormat
        /// The longest message read from Chromium; a longer one closes the pipe with
        /// `EngineError.Code.messageTooLarge`.
        let maximumIncomingMessageSize: Int
        private let descriptor: ChromiumPipeDescriptor
        private let writes = DispatchQueue(label: "SchemeKitChromium.pipe.write")
        private let onMessage: @Sendable (CDPValue) -> Void
        private let onClose: @Sendable (EngineError) -> Void

        init(
            descriptor: Int32,
            format: ChromiumWireFormat,
            maximumMessageSize: Int = ChromiumMessageFramer.defaultMaximumMessageSize,
            onMessage: @escaping @Sendable (CDPValue) -> Void,
            onClose: @escaping @Sendable (EngineError) -> Void
        ) {
            self.descriptor = ChromiumPipeDescriptor(descriptor)
            self.format = format
            self.maximumIncomingMessageSize = maximumMessageSize
            self.onMessage = onMessage
            self.onClose = onClose
        }

        /// One framed message: JSON and its NUL terminator, or a CBOR envelope whose large binary
        /// fields are pieces of their own.
        func frame(_ message: CDPValue) -> [Data] { format.framePieces(message) }

        /// The pipe carries messages of any size (Chromium's own limits apply).
        var maximumMessageSize: Int? { nil }

        /// Starts the reader thread.
        func start() {
            let thread = Thread { [self] in readLoop() }
            thread.name = "SchemeKitChromium.pipe.read"
            thread.start()
        }

        /// Queues one message for writing, in call order; `completion` gets the write error, if any.
        ///
        /// The write holds the descriptor's owner, so the descriptor stays open (and its number
        /// cannot be reused) until the last queued write has run, even when the pipe is released first.
        func enqueue(_ message: [Data], completion: @escaping @Sendable (EngineError?) -> Void) {
            writes.async { [descriptor] in
                for piece in message {
                    if case .failure(let error) = Self.writeAll(piece, to: descriptor.value) {
                        completion(error)
                        return
                    }
                }
                completion(nil)
            }
        }

        /// Shuts the socket down: the reader sees end of file and reports the close.
        func shutDown() {
            _ = Glibc.shutdown(descriptor.value, Int32(SHUT_RDWR))
        }

        private static func writeAll(_ message: Data, to descriptor: Int32) -> Result<Void, EngineError> {
            message.withUnsafeBytes { buffer -> Result<Void, EngineError> in
                var offset = 0
                while offset < buffer.count {
                    let written = schemekit_send_nosignal(
                        descriptor, buffer.baseAddress! + offset, UInt(buffer.count - offset))
                    if written < 0 {
                        if errno == EINTR { continue }
                        return .failure(EngineError(.disconnected, "write to Chromium failed: errno \(errno)"))
                    }
                    offset += written
                }
                return .success(())
            }
        }

        private func readLoop() {
            // One read buffer for the life of the pipe; the framer keeps only a message that spans reads.
            let chunk = 1 << 20
            let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
            defer { readBuffer.deallocate() }
            var framer = ChromiumMessageFramer(format: format, maximumMessageSize: maximumIncomingMessageSize)
            var closing = EngineError(.disconnected, "Chromium closed the DevTools pipe")
            reading: while true {
                let got = read(descriptor.value, readBuffer.baseAddress!, chunk)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                framer.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<got]))
                do {
                    while let message = try framer.next() {
                        onMessage(try format.decode(message))
                    }
                } catch let error as ChromiumMessageFramer.MessageTooLarge {
                    closing = EngineError(.messageTooLarge, "\(error)")
                    break reading
                } catch {
                    closing = EngineError(.malformedMessage, "\(error)")
                    break reading
                }
            }
            shutDown()
            onClose(closing)
        }
    }
#endif
