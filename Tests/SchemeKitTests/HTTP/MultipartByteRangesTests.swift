import SchemeKit
import Testing

extension HTTPTests {
    struct MultipartByteRangesTests {
        @Test func framingAndLength() {
            let ranges = [ByteRange(first: 0, last: 1), ByteRange(first: 5, last: 7)]
            let multipart = MultipartByteRanges(
                ranges: ranges, completeLength: 10, contentType: "text/plain", boundary: "B")
            let data = Array("0123456789".utf8)
            var body = ""
            for (index, range) in ranges.enumerated() {
                body += multipart.partHeader(at: index)
                body += String(decoding: data[Int(range.first)...Int(range.last)], as: UTF8.self)
            }
            body += multipart.closingDelimiter
            #expect(
                body
                    == "--B\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-1/10\r\n\r\n01"
                    + "\r\n--B\r\nContent-Type: text/plain\r\nContent-Range: bytes 5-7/10\r\n\r\n567\r\n--B--\r\n")
            #expect(multipart.contentLength == Int64(body.utf8.count))
            #expect(multipart.contentTypeValue == "multipart/byteranges; boundary=B")
        }

        @Test func randomBoundariesDiffer() {
            let a = MultipartByteRanges.randomBoundary()
            let b = MultipartByteRanges.randomBoundary()
            #expect(a.count == 32 && b.count == 32 && a != b)
            #expect(a.allSatisfy { $0.isHexDigit })
        }
    }
}
