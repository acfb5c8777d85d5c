import Foundation
import SchemeKit
import Testing

struct SchemeResponseTests {
    @Test func contentTypeAndLengthAreFilledFromTheMetadata() {
        let head = SchemeResponse(mimeType: "text/html", textEncodingName: "utf-8", expectedContentLength: 1024)
        #expect(head.status == .ok)
        #expect(head.headerFields[.contentType] == "text/html; charset=utf-8")
        #expect(head.headerFields[.contentLength] == "1024")
        #expect(head.mimeType == "text/html")
        #expect(head.textEncodingName == "utf-8")
        #expect(head.expectedContentLength == 1024)
    }

    @Test func binaryTypesGetNoCharset() {
        let head = SchemeResponse(mimeType: "image/png")
        #expect(head.headerFields[.contentType] == "image/png")
        #expect(head.headerFields[.contentLength] == nil)
        #expect(head.textEncodingName == nil)
        #expect(head.expectedContentLength == nil)
    }

    @Test func explicitHeaderFieldsWinAndFillTheMetadata() {
        var fields = HTTPFields()
        fields[.contentType] = "Text/CSS; Charset=\"ISO-8859-1\""
        fields[.contentLength] = "7"
        let head = SchemeResponse(status: .partialContent, headerFields: fields)
        #expect(head.status == .partialContent)
        #expect(head.headerFields[.contentType] == "Text/CSS; Charset=\"ISO-8859-1\"")
        #expect(head.mimeType == "text/css")
        #expect(head.textEncodingName == "ISO-8859-1")
        #expect(head.expectedContentLength == 7)

        let kept = SchemeResponse(headerFields: fields, mimeType: "text/plain", expectedContentLength: 99)
        #expect(kept.headerFields[.contentType] == "Text/CSS; Charset=\"ISO-8859-1\"")
        #expect(kept.headerFields[.contentLength] == "7")
    }

    @Test func plainTextIsUTF8WithItsLength() {
        let (head, body) = SchemeResponse.plainText(.notFound, "Not Found\n")
        #expect(head.status == .notFound)
        #expect(head.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(head.headerFields[.contentLength] == "10")
        #expect(body == Data("Not Found\n".utf8))
    }
}
