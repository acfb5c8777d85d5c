// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK

    /// The `GInputStream` subclass WebKit reads a response body from: a thin GObject shell around a
    /// ``SchemeBodyPipe``.
    ///
    /// Instances are `SchemeKitInputStream` GObjects whose instance struct is a `GInputStream`
    /// followed by one pointer: a retained reference to the pipe, released in `finalize`.
    /// `read_async` is non-blocking (WebKit reads in 8 KiB chunks as data arrives); `read_fn` never
    /// blocks; `close_fn` and `finalize` detach the pipe, which counts an early close as a stop.
    enum SchemeInputStream {
        /// Makes a stream reading from `pipe`; the caller owns the returned reference.
        static func make(reading pipe: SchemeBodyPipe) -> UnsafeMutablePointer<GInputStream> {
            let object = UnsafeMutableRawPointer(g_object_new_with_properties(streamType, 0, nil, nil)!)
            slot(of: object).storeBytes(of: Unmanaged.passRetained(pipe).toOpaque(), as: UnsafeMutableRawPointer.self)
            return object.assumingMemoryBound(to: GInputStream.self)
        }

        /// The type, registered once.
        private static let streamType: GType = g_type_register_static_simple(
            g_input_stream_get_type(),
            "SchemeKitInputStream",
            guint(MemoryLayout<GInputStreamClass>.size),
            classInit,
            guint(MemoryLayout<GInputStream>.size + MemoryLayout<UnsafeMutableRawPointer>.size),
            nil,
            GTypeFlags(rawValue: 0)
        )

        /// Where the pipe pointer sits in an instance.
        private static func slot(of object: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
            object + MemoryLayout<GInputStream>.size
        }

        private static func pipe(_ object: UnsafeMutableRawPointer?) -> SchemeBodyPipe? {
            guard let object, let raw = slot(of: object).load(as: UnsafeMutableRawPointer?.self) else { return nil }
            return Unmanaged<SchemeBodyPipe>.fromOpaque(raw).takeUnretainedValue()
        }

        /// The parent class's `finalize`, chained to from ours. Written once in `classInit`, before
        /// any instance exists.
        nonisolated(unsafe) private static var parentFinalize:
            (@convention(c) (UnsafeMutablePointer<GObject>?) -> Void)?

        private static let classInit: GClassInitFunc = { klass, _ in
            let streamClass = klass!.assumingMemoryBound(to: GInputStreamClass.self)
            SchemeInputStream.parentFinalize = streamClass.pointee.parent_class.finalize
            streamClass.pointee.parent_class.finalize = { object in
                let raw = UnsafeMutableRawPointer(object!)
                if let pointer = SchemeInputStream.slot(of: raw).load(as: UnsafeMutableRawPointer?.self) {
                    SchemeInputStream.slot(of: raw).storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
                    let pipe = Unmanaged<SchemeBodyPipe>.fromOpaque(pointer)
                    pipe.takeUnretainedValue().detach()
                    pipe.release()
                }
                SchemeInputStream.parentFinalize?(object)
            }
            streamClass.pointee.read_fn = { stream, buffer, count, _, error in
                guard let pipe = SchemeInputStream.pipe(stream), let buffer else { return -1 }
                switch pipe.readNow(into: buffer, count: Int(count)) {
                case .success(let read):
                    return gssize(read)
                case .failure(let failure):
                    g_set_error_literal(error, schemekit_io_error_quark(), gint(failure.code.rawValue), failure.message)
                    return -1
                }
            }
            streamClass.pointee.read_async = { stream, buffer, count, priority, cancellable, callback, data in
                let task = g_task_new(stream, cancellable, callback, data)!
                g_task_set_priority(task, priority)
                guard let pipe = SchemeInputStream.pipe(stream), let buffer else {
                    g_task_return_error(
                        task,
                        g_error_new_literal(
                            schemekit_io_error_quark(), gint(G_IO_ERROR_CLOSED.rawValue), "stream closed"))
                    g_object_unref(UnsafeMutableRawPointer(task))
                    return
                }
                pipe.read(task: task, buffer: buffer, count: Int(count), cancellable: cancellable)
            }
            streamClass.pointee.read_finish = { _, result, error in
                g_task_propagate_int(result, error)
            }
            streamClass.pointee.close_fn = { stream, _, _ in
                SchemeInputStream.pipe(stream)?.detach()
                return 1
            }
        }
    }
#endif
