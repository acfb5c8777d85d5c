/// Writing the HAR model as JSON, members in the order of the HAR 1.2 specification; optional
/// members that are `nil` are left out, custom (`_`) members follow, sorted by name.
extension HARArchive {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.key("log")
            log.write(into: &writer)
        }
    }
}

extension HARLog {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("version", version)
            writer.key("creator")
            creator.write(into: &writer)
            if let browser {
                writer.key("browser")
                browser.write(into: &writer)
            }
            if let pages {
                writer.key("pages")
                writer.array { writer in
                    for page in pages {
                        writer.element()
                        page.write(into: &writer)
                    }
                }
            }
            writer.key("entries")
            writer.array { writer in
                for entry in entries {
                    writer.element()
                    entry.write(into: &writer)
                }
            }
            writer.field("comment", comment)
            writer.custom(custom)
        }
    }
}

extension HARCreator {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("name", name)
            writer.field("version", version)
            writer.field("comment", comment)
        }
    }
}

extension HARPage {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("startedDateTime", startedDateTime)
            writer.field("id", id)
            writer.field("title", title)
            writer.key("pageTimings")
            writer.object { writer in
                writer.field("onContentLoad", onContentLoad)
                writer.field("onLoad", onLoad)
            }
            writer.field("comment", comment)
            writer.custom(custom)
        }
    }
}

extension HAREntry {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("pageref", pageref)
            writer.field("startedDateTime", startedDateTime)
            writer.field("time", time)
            writer.key("request")
            request.write(into: &writer)
            writer.key("response")
            response.write(into: &writer)
            writer.field("cache", cache)
            writer.key("timings")
            timings.write(into: &writer)
            writer.field("serverIPAddress", serverIPAddress)
            writer.field("connection", connection)
            writer.field("comment", comment)
            writer.custom(custom)
        }
    }
}

extension HARRequest {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("method", method)
            writer.field("url", url)
            writer.field("httpVersion", httpVersion)
            writer.key("cookies")
            HARCookie.write(cookies, into: &writer)
            writer.key("headers")
            HARNameValue.write(headers, into: &writer)
            writer.key("queryString")
            HARNameValue.write(queryString, into: &writer)
            if let postData {
                writer.key("postData")
                postData.write(into: &writer)
            }
            writer.field("headersSize", headersSize)
            writer.field("bodySize", bodySize)
            writer.field("comment", comment)
            writer.custom(custom)
        }
    }
}

extension HARResponse {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("status", status)
            writer.field("statusText", statusText)
            writer.field("httpVersion", httpVersion)
            writer.key("cookies")
            HARCookie.write(cookies, into: &writer)
            writer.key("headers")
            HARNameValue.write(headers, into: &writer)
            writer.key("content")
            content.write(into: &writer)
            writer.field("redirectURL", redirectURL)
            writer.field("headersSize", headersSize)
            writer.field("bodySize", bodySize)
            writer.field("comment", comment)
            writer.custom(custom)
        }
    }
}

extension HARContent {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("size", size)
            writer.field("compression", compression)
            writer.field("mimeType", mimeType)
            writer.field("text", text)
            writer.field("encoding", encoding)
            writer.field("comment", comment)
            writer.field("_file", file)
            writer.custom(custom)
        }
    }
}

extension HARPostData {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("mimeType", mimeType)
            if !parameters.isEmpty {
                writer.key("params")
                writer.array { writer in
                    for parameter in parameters {
                        writer.element()
                        writer.object { writer in
                            writer.field("name", parameter.name)
                            writer.field("value", parameter.value)
                            writer.field("fileName", parameter.fileName)
                            writer.field("contentType", parameter.contentType)
                            writer.field("comment", parameter.comment)
                        }
                    }
                }
            }
            writer.field("text", text)
            writer.field("comment", comment)
            writer.field("_encoding", encoding)
            writer.field("_file", file)
            writer.custom(custom)
        }
    }
}

extension HARTimings {
    func write(into writer: inout HARJSONWriter) {
        writer.object { writer in
            writer.field("blocked", blocked)
            writer.field("dns", dns)
            writer.field("connect", connect)
            writer.field("send", send)
            writer.field("wait", wait)
            writer.field("receive", receive)
            writer.field("ssl", ssl)
            writer.field("comment", comment)
            writer.custom(custom)
        }
    }
}

extension HARNameValue {
    static func write(_ pairs: [HARNameValue], into writer: inout HARJSONWriter) {
        writer.array { writer in
            for pair in pairs {
                writer.element()
                writer.object { writer in
                    writer.field("name", pair.name)
                    writer.field("value", pair.value)
                    writer.field("comment", pair.comment)
                }
            }
        }
    }
}

extension HARCookie {
    static func write(_ cookies: [HARCookie], into writer: inout HARJSONWriter) {
        writer.array { writer in
            for cookie in cookies {
                writer.element()
                writer.object { writer in
                    writer.field("name", cookie.name)
                    writer.field("value", cookie.value)
                    writer.field("path", cookie.path)
                    writer.field("domain", cookie.domain)
                    writer.field("expires", cookie.expires)
                    writer.field("httpOnly", cookie.httpOnly)
                    writer.field("secure", cookie.secure)
                    writer.field("sameSite", cookie.sameSite)
                    writer.field("comment", cookie.comment)
                }
            }
        }
    }
}
