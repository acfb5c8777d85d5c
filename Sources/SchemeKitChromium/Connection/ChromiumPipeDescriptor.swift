#if Chromium
    import Foundation

    /// The owner of a DevTools pipe's socket descriptor: it closes the descriptor when the last
    /// holder lets go.
    ///
    /// ``ChromiumPipe``, its reader thread and every queued write hold it, so a write queued before
    /// the pipe was released still writes to the pipe's own socket, never to a closed descriptor or
    /// to a file that reused the number.
    final class ChromiumPipeDescriptor: Sendable {
        /// The descriptor; open for as long as this object lives.
        let value: Int32

        init(_ value: Int32) {
            self.value = value
        }

        deinit {
            close(value)
        }
    }
#endif
