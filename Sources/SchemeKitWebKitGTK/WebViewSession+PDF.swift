// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    public import SchemeKit

    extension WebViewSession {
        /// Prints the page to a PDF file with WebKit's print operation, no dialog: GTK's "Print to
        /// File" printer, `output-file-format` `pdf`, `output-uri` the file (GTK's file print
        /// backend, `libprintbackend-file.so`, must be installed: it comes with `libgtk-4-1`).
        ///
        /// ```swift
        /// try await session.printToPDF(to: "/tmp/page.pdf", options: PDFOptions(pageWidth: 21.0, pageHeight: 29.7))  // A4
        /// ```
        ///
        /// - Parameters:
        ///   - path: Where to write the PDF; an existing regular file is replaced, at once when
        ///     the PDF is complete (it is printed to a temporary file beside it, then renamed), so
        ///     a failed print leaves it as it was. A directory or an empty path is refused.
        ///   - options: The paper, in centimetres, and whether backgrounds print (WebKit's
        ///     `print-backgrounds` setting, restored afterwards). Default: US Letter, no backgrounds,
        ///     as on the other engines.
        /// - Throws: `EngineError` with code `operationFailed` with GTK's message when printing fails, the file
        ///   is missing afterwards, or `path` is empty, names a directory or cannot be replaced.
        public func printToPDF(to path: String, options: PDFOptions = PDFOptions()) async throws {
            let (pageWidth, pageHeight, background) = (options.pageWidth, options.pageHeight, options.background)
            guard !path.isEmpty else { throw EngineError.print("no PDF path given") }
            let destination = URL(fileURLWithPath: path).standardizedFileURL
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                throw EngineError.print("\(path) is a directory, not a PDF file")
            }
            // GTK's file backend writes where it is told: a name of our own beside the destination,
            // renamed over it once complete, so nothing that was there is lost on a failure.
            let file = destination.deletingLastPathComponent()
                .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).pdf")
            defer { try? FileManager.default.removeItem(at: file) }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                executor.execute {
                    let settings = gtk_print_settings_new()
                    gtk_print_settings_set_printer(settings, "Print to File")
                    gtk_print_settings_set(settings, "output-file-format", "pdf")
                    gtk_print_settings_set(settings, "output-uri", file.absoluteString)
                    let setup = gtk_page_setup_new()
                    let paper = gtk_paper_size_new_custom(
                        "schemekit-custom", "SchemeKit", pageWidth * 10, pageHeight * 10, GTK_UNIT_MM)
                    gtk_page_setup_set_paper_size(setup, paper)
                    gtk_paper_size_free(paper)
                    let webSettings = webkit_web_view_get_settings(self.view)
                    let printedBackgrounds = webkit_settings_get_print_backgrounds(webSettings)
                    webkit_settings_set_print_backgrounds(webSettings, background ? 1 : 0)
                    let operation = webkit_print_operation_new(self.view)!
                    webkit_print_operation_set_print_settings(operation, settings)
                    webkit_print_operation_set_page_setup(operation, setup)
                    g_object_unref(UnsafeMutableRawPointer(settings))
                    g_object_unref(UnsafeMutableRawPointer(setup))
                    let job = PrintJob(
                        continuation: continuation, path: file.path,
                        restore: { webkit_settings_set_print_backgrounds(webSettings, printedBackgrounds) })
                    let data = Unmanaged.passRetained(job).toOpaque()
                    connectSignal(UnsafeMutableRawPointer(operation), "failed", PrintJob.failed, data)
                    connectSignal(UnsafeMutableRawPointer(operation), "finished", PrintJob.finished, data)
                    webkit_print_operation_print(operation)
                }
            }
            guard rename(file.path, destination.path) == 0 else {
                throw EngineError.print("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// One print operation in flight: resumed once, by `failed` or by `finished` (which follows
    /// `failed`, and releases the job and the operation). Main context only.
    private final class PrintJob: @unchecked Sendable {
        private var continuation: CheckedContinuation<Void, any Error>?
        private let path: String
        private let restore: () -> Void

        init(continuation: CheckedContinuation<Void, any Error>, path: String, restore: @escaping () -> Void) {
            self.continuation = continuation
            self.path = path
            self.restore = restore
        }

        private func resume(_ error: EngineError?) {
            guard let continuation else { return }
            self.continuation = nil
            restore()
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }

        static let failed:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void =
                {
                    _, error, data in
                    let job = Unmanaged<PrintJob>.fromOpaque(data!).takeUnretainedValue()
                    let message = error?.pointee.message.map { String(cString: $0) } ?? "printing failed"
                    job.resume(.print(message))
                }

        static let finished: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
            operation, data in
            let job = Unmanaged<PrintJob>.fromOpaque(data!).takeRetainedValue()
            let written = FileManager.default.fileExists(atPath: job.path)
            job.resume(written ? nil : .print("the print operation finished without writing \(job.path)"))
            if let operation {
                g_signal_handlers_disconnect_matched(operation, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, data)
                g_object_unref(operation)
            }
        }
    }
#endif
