// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    public import Foundation
    import SchemeKit

    extension WebKitSchemeAdapter {
        /// The file name SwiftPM gives the dynamic library product `SchemeKitWebKitGTKMedia`.
        package static let mediaExtensionFileName = "libSchemeKitWebKitGTKMedia.so"

        /// Where the adapter looks for the media extension by default: the file named by the
        /// environment variable `SCHEMEKIT_WEBKIT_MEDIA_EXTENSION`, else `libSchemeKitWebKitGTKMedia.so` in
        /// the running executable's directory; `nil` when neither exists.
        ///
        /// SwiftPM builds the product next to the executables of the package that depends on it, so an
        /// app whose executable target lists `SchemeKitWebKitGTKMedia` finds it with no set-up. An app
        /// installed elsewhere ships the file and passes its URL to
        /// ``init(registry:context:executor:bufferCapacity:maximumRequestBodySize:mediaExtension:)``.
        public static var defaultMediaExtension: URL? {
            let fileManager = FileManager.default
            if let path = ProcessInfo.processInfo.environment["SCHEMEKIT_WEBKIT_MEDIA_EXTENSION"], !path.isEmpty {
                return fileManager.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
            }
            guard let executable = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
                return nil
            }
            let candidate = URL(fileURLWithPath: executable).deletingLastPathComponent()
                .appendingPathComponent(mediaExtensionFileName)
            return fileManager.fileExists(atPath: candidate.path) ? candidate : nil
        }

        /// The text every real media extension carries (`SCHEMEKIT_MEDIA_EXTENSION_MARKER` in its
        /// header): a build without the trait `WebKitGTK` writes a library without it, and an
        /// extension of another wire format carries another.
        package static let mediaExtensionMarker = "SchemeKitWebKitGTKMedia extension, wire format SKM1"

        /// Why `library` is not a media extension this adapter can use, in one line naming the
        /// command that builds the real one; `nil` when it carries ``mediaExtensionMarker``.
        ///
        /// The adapter checks this before it hands the file to WebKit, which would load a stub
        /// silently: every `<video>` on the app's scheme would then fail with
        /// `MEDIA_ERR_SRC_NOT_SUPPORTED`.
        package static func mediaExtensionProblem(at library: URL) -> String? {
            guard let data = try? Data(contentsOf: library, options: .mappedIfSafe) else {
                return "the WebKitGTK media extension \(library.path) cannot be read"
            }
            if data.range(of: Data(mediaExtensionMarker.utf8)) != nil { return nil }
            return """
                the WebKitGTK media extension \(library.path) is a stub or from another SchemeKit version \
                (a build without the trait WebKitGTK writes an empty one): build the real one with \
                `swift build --traits WebKitGTK` (or `--product SchemeKitWebKitGTKMedia`), or pass --no-media
                """
        }

        /// Hands the media extension to the context's future web processes and listens for their
        /// control sockets. Returns `false` when the file cannot be used (a stub included: see
        /// ``mediaExtensionProblem(at:)``).
        func enableMedia(extension library: URL) -> Bool {
            if let problem = Self.mediaExtensionProblem(at: library) {
                FileHandle.standardError.write(Data("SchemeKit: \(problem)\n".utf8))
                return false
            }
            // WebKit loads every module in the directory it is given: give it one with only ours.
            guard
                let directory = WebKitMediaDirectory.make(
                    with: library, as: Self.mediaExtensionFileName,
                    tag: UInt(bitPattern: ObjectIdentifier(self).hashValue))
            else { return false }
            let schemes = registry.schemes.map(\.rawValue)
            var allowed =
                ProcessInfo.processInfo.environment["WEBKIT_GST_ALLOWED_URI_PROTOCOLS"].map {
                    $0.split(separator: ",").map(String.init)
                } ?? []
            for scheme in schemes where !allowed.contains(scheme) { allowed.append(scheme) }
            setenv("WEBKIT_GST_ALLOWED_URI_PROTOCOLS", allowed.joined(separator: ","), 1)

            webkit_web_context_set_web_process_extensions_directory(context, directory.path)
            // SwiftPM links every product with the Swift runtime, even a C-only one: let the sandboxed
            // web process see the directory this process loaded it from (the extension's run path).
            if let runtime = Self.swiftRuntimeDirectory() {
                webkit_web_context_add_path_to_sandbox(context, runtime, 1)
            }
            let strings = schemes.map { strdup($0) }
            defer { strings.forEach { free($0) } }
            let list = strings.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
                g_variant_new_strv(buffer.baseAddress, gssize(buffer.count))
            }
            var children = [list]
            let data = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
            webkit_web_context_set_web_process_extensions_initialization_user_data(context, data)

            let bridge = Unmanaged.passRetained(WebKitMediaBridge(adapter: self)).toOpaque()
            g_signal_connect_data(
                UnsafeMutableRawPointer(context), "user-message-received",
                unsafeBitCast(Self.userMessageReceived, to: GCallback.self), bridge,
                { data, _ in Unmanaged<WebKitMediaBridge>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
            return true
        }

        /// The directory of the Swift runtime (`libswiftCore.so`) this process has loaded, from
        /// `/proc/self/maps`; `nil` when it is linked statically.
        static func swiftRuntimeDirectory() -> String? {
            // procfs files report size 0: read to the end rather than by the size.
            guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
                let data = try? handle.readToEnd()
            else { return nil }
            try? handle.close()
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                guard let slash = line.firstIndex(of: "/") else { continue }
                let path = line[slash...]
                if path.hasSuffix("/libswiftCore.so") { return String(path.dropLast("/libswiftCore.so".count)) }
            }
            return nil
        }

        private static let userMessageReceived:
            @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = {
                _, message, data in
                guard let message, let name = webkit_user_message_get_name(message),
                    String(cString: name) == WebKitMediaBridge.connectMessage
                else { return 0 }
                let bridge = Unmanaged<WebKitMediaBridge>.fromOpaque(data!).takeUnretainedValue()
                guard let fds = webkit_user_message_get_fd_list(message), g_unix_fd_list_get_length(fds) > 0 else {
                    return 1
                }
                let fd = g_unix_fd_list_get(fds, 0, nil)
                if fd >= 0 { bridge.serve(controlSocket: fd) }
                return 1
            }
    }
#endif
