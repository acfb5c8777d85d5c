// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import SchemeKit

    /// One `Value` per event loop, made on first use there: state a loop's connections share
    /// without locks (each value is confined to its loop).
    final class PerEventLoop<Value: AnyObject & Sendable>: Sendable {
        private let made = Locked<[ObjectIdentifier: Value]>([:])
        private let make: @Sendable (any EventLoop) -> Value

        /// - Parameter make: Makes the value of a loop; called once per loop, on it.
        init(_ make: @escaping @Sendable (any EventLoop) -> Value) {
            self.make = make
        }

        /// The value of `eventLoop` (made on first use). Called once per connection.
        func value(for eventLoop: any EventLoop) -> Value {
            made.withLock { values in
                let id = ObjectIdentifier(eventLoop)
                if let value = values[id] { return value }
                let value = make(eventLoop)
                values[id] = value
                return value
            }
        }

        /// The values made so far.
        var values: [Value] {
            made.withLock { Array($0.values) }
        }
    }
#endif
