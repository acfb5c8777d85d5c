// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation

    /// Reads a request body `GInputStream` asynchronously on the main context into an
    /// `AsyncThrowingStream` a handler consumes off it.
    final class RequestBodyReader: @unchecked Sendable {
        private let stream: UnsafeMutablePointer<GInputStream>
        private let continuation: AsyncThrowingStream<Data, any Error>.Continuation

        private init(
            stream: UnsafeMutablePointer<GInputStream>, continuation: AsyncThrowingStream<Data, any Error>.Continuation
        ) {
            self.stream = stream
            self.continuation = continuation
        }

        /// Starts reading `stream` (taking over the caller's reference); the chunks arrive in order.
        static func read(_ stream: UnsafeMutablePointer<GInputStream>, executor: GLibExecutor) -> AsyncThrowingStream<
            Data, any Error
        > {
            let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            let reader = RequestBodyReader(stream: stream, continuation: continuation)
            reader.next()
            return chunks
        }

        private func next() {
            g_input_stream_read_bytes_async(
                stream, 64 << 10, G_PRIORITY_DEFAULT, nil,
                { source, result, data in
                    let reader = Unmanaged<RequestBodyReader>.fromOpaque(data!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    let bytes = g_input_stream_read_bytes_finish(
                        UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GInputStream.self), result, &error)
                    if let error {
                        reader.continuation.finish(
                            throwing: WebKitGTKError.loadFailed(String(cString: error.pointee.message)))
                        g_error_free(error)
                        reader.close()
                        return
                    }
                    var size: gsize = 0
                    let pointer = g_bytes_get_data(bytes, &size)
                    if size == 0 || pointer == nil {
                        g_bytes_unref(bytes)
                        reader.continuation.finish()
                        reader.close()
                        return
                    }
                    reader.continuation.yield(Data(bytes: pointer!, count: Int(size)))
                    g_bytes_unref(bytes)
                    reader.next()
                }, Unmanaged.passRetained(self).toOpaque())
        }

        private func close() {
            g_object_unref(UnsafeMutableRawPointer(stream))
        }
    }
#endif
