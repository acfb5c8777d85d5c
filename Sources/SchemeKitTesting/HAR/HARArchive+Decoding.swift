/// Reading the HAR model from parsed JSON, leniently where browsers differ from the
/// specification and with a typed error everywhere else.
///
/// Required: an object `log` with an array `entries`; in each entry, objects `request` and
/// `response`, `request.method`, `request.url` and an integer `response.status`. Every other field
/// may be missing or `null` (it then takes the model's default: empty strings and lists, `-1`
/// sizes, zero timings); a field of the wrong type is an error. Members starting with `_` are
/// kept in `custom`.
extension HARArchive {
    init(json: HARValue) throws(HARError) {
        let root = try HARFields(json, path: "", kind: .invalidArchive)
        guard let log = try root.object("log") else { throw HARError(.invalidArchive, "no \"log\" object") }
        guard let entries = log.raw("entries")?.arrayValue else {
            throw HARError(.invalidArchive, "no \"entries\" array", field: "log.entries")
        }
        var decoded: [HAREntry] = []
        decoded.reserveCapacity(entries.count)
        for (index, element) in entries.enumerated() {
            do throws(HARError) {
                decoded.append(try HAREntry(try HARFields(element, path: "", kind: .invalidEntry)))
            } catch {
                throw error.located(entryIndex: index, entryURL: element["request"]?["url"]?.stringValue)
            }
        }
        self.init(
            log: HARLog(
                version: try log.string("version") ?? "",
                creator: try log.object("creator").map(HARCreator.init) ?? HARCreator(name: "", version: ""),
                browser: try log.object("browser").map(HARCreator.init),
                pages: try log.objects("pages")?.map(HARPage.init),
                entries: decoded,
                comment: try log.string("comment"),
                custom: log.custom()
            ))
    }
}

extension HARCreator {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            name: try fields.string("name") ?? "", version: try fields.string("version") ?? "",
            comment: try fields.string("comment"))
    }
}

extension HARPage {
    init(_ fields: HARFields) throws(HARError) {
        let timings = try fields.object("pageTimings")
        self.init(
            startedDateTime: try fields.string("startedDateTime") ?? "",
            id: try fields.string("id") ?? "",
            title: try fields.string("title") ?? "",
            onContentLoad: try timings?.double("onContentLoad"),
            onLoad: try timings?.double("onLoad"),
            comment: try fields.string("comment"),
            custom: fields.custom()
        )
    }
}

extension HAREntry {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            pageref: try fields.string("pageref"),
            startedDateTime: try fields.string("startedDateTime") ?? "",
            time: try fields.double("time") ?? 0,
            request: try HARRequest(try fields.requiredObject("request")),
            response: try HARResponse(try fields.requiredObject("response")),
            cache: fields.raw("cache"),
            timings: try fields.object("timings").map(HARTimings.init) ?? HARTimings(),
            serverIPAddress: try fields.string("serverIPAddress"),
            connection: try fields.string("connection"),
            comment: try fields.string("comment"),
            custom: fields.custom()
        )
    }
}

extension HARRequest {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            method: try fields.requiredString("method"),
            url: try fields.requiredString("url"),
            httpVersion: try fields.string("httpVersion") ?? "",
            cookies: try fields.objects("cookies")?.map(HARCookie.init) ?? [],
            headers: try fields.objects("headers")?.map(HARNameValue.init) ?? [],
            queryString: try fields.objects("queryString")?.map(HARNameValue.init) ?? [],
            postData: try fields.object("postData").map(HARPostData.init),
            headersSize: try fields.int("headersSize") ?? -1,
            bodySize: try fields.int("bodySize") ?? -1,
            comment: try fields.string("comment"),
            custom: fields.custom()
        )
    }
}

extension HARResponse {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            status: try fields.requiredInt("status"),
            statusText: try fields.string("statusText") ?? "",
            httpVersion: try fields.string("httpVersion") ?? "",
            cookies: try fields.objects("cookies")?.map(HARCookie.init) ?? [],
            headers: try fields.objects("headers")?.map(HARNameValue.init) ?? [],
            content: try fields.object("content").map(HARContent.init) ?? HARContent(size: -1, mimeType: ""),
            redirectURL: try fields.string("redirectURL") ?? "",
            headersSize: try fields.int("headersSize") ?? -1,
            bodySize: try fields.int("bodySize") ?? -1,
            comment: try fields.string("comment"),
            custom: fields.custom()
        )
    }
}

extension HARContent {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            size: try fields.int("size") ?? -1,
            compression: try fields.int("compression"),
            mimeType: try fields.string("mimeType") ?? "",
            text: try fields.string("text"),
            encoding: try fields.string("encoding"),
            file: try fields.string("_file"),
            comment: try fields.string("comment"),
            custom: fields.custom(except: ["_file"])
        )
    }
}

extension HARPostData {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            mimeType: try fields.string("mimeType") ?? "",
            text: try fields.string("text"),
            encoding: try fields.string("_encoding"),
            parameters: try fields.objects("params")?.map(Parameter.init) ?? [],
            file: try fields.string("_file"),
            comment: try fields.string("comment"),
            custom: fields.custom(except: ["_file", "_encoding"])
        )
    }
}

extension HARPostData.Parameter {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            name: try fields.string("name") ?? "",
            value: try fields.string("value"),
            fileName: try fields.string("fileName"),
            contentType: try fields.string("contentType"),
            comment: try fields.string("comment")
        )
    }
}

extension HARTimings {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            blocked: try fields.double("blocked"),
            dns: try fields.double("dns"),
            connect: try fields.double("connect"),
            send: try fields.double("send") ?? 0,
            wait: try fields.double("wait") ?? 0,
            receive: try fields.double("receive") ?? 0,
            ssl: try fields.double("ssl"),
            comment: try fields.string("comment"),
            custom: fields.custom()
        )
    }
}

extension HARNameValue {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            name: try fields.string("name") ?? "", value: try fields.string("value") ?? "",
            comment: try fields.string("comment"))
    }
}

extension HARCookie {
    init(_ fields: HARFields) throws(HARError) {
        self.init(
            name: try fields.string("name") ?? "",
            value: try fields.string("value") ?? "",
            path: try fields.string("path"),
            domain: try fields.string("domain"),
            expires: try fields.string("expires"),
            httpOnly: try fields.bool("httpOnly"),
            secure: try fields.bool("secure"),
            sameSite: try fields.string("sameSite"),
            comment: try fields.string("comment")
        )
    }
}
