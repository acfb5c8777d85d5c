#!/usr/bin/env python3
"""Writes the committed seed corpora under Fuzz/Corpus/<target>/ (run from anywhere; idempotent).

Seeds follow each target's input layout (see FuzzInput: a string is a length byte + bytes) and
come from the unit tests, RFC 9110 / RFC 3986 examples and the WHATWG sniffing table. The zip
seeds are made with Info-ZIP's `zip` (Debian package `zip`)."""
import hashlib, os, struct, subprocess, tempfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    directory = os.path.join(HERE, "Corpus", target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)

def s(text):
    data = text.encode() if isinstance(text, str) else text
    assert len(data) < 256
    return bytes([len(data)]) + data

URLS = [
    "app://localhost/index.html", "app:///index.html", "app://h/a.js?v=1.2", "app://H.Example:80",
    "app://h:8/%7e", "app://[::1]:8/x", "app://1.2.3.4/x", "app://a!$&'()*+,;=b/x", "app://a.XN--tda.example/",
    "app://h/:@!$&'()*+,;=-._~?/:@", "app://h/a%20b/c%2Fd.txt", "app://h/%2e%2e/secret", "app://h/page.html#section",
    "app:foo", "app:/x", "app://", "app:////x", "app://@/", "app://u:p@h/x", "app://h:65536/x", "app://h:/x",
    "app://h/a?b?c", "app://h/?q=[x]", "app://h/a b", "app://h/\u00e9", "app://h\u00e9/x", "a+b-c.d://h/",
    "https://example.com:8443/a/b;p?q=1&r=%20", "app://h/%", "app://h/%zz", "APP://LOCALHOST/INDEX.HTML",
    "app://h:099999/", "app://h:00080/", "app://:80/", "app://h/x#", "file:///etc/passwd", "app://%41/x",
]
for url in URLS:
    put("FuzzURL", url)

for scheme, authority, target in [
    ("app", "localhost", "/index.html"), ("app", "localhost:8080", "/a.js?v=2"), ("app", "", "/"),
    ("app", "h", ""), ("app", "[::1]", "/x"), ("app", "h", "/%2e%2e/etc/passwd"), ("APP", "H", "/A?B#C"),
    ("app", "u@h", "/x"), ("a:b", "h", "/x"), ("app", "h", "x"), ("app", "h:99999", "/x"),
]:
    fields = b"".join(
        [b"\x01" + s("bytes=0-99"), b"\x01" + s('"a", W/"b"'), b"\x00", b"\x01" + s("Sun, 06 Nov 1994 08:49:37 GMT"),
         b"\x00", b"\x01" + s("text/html"), b"\x00"])
    put("FuzzRequestParts", s(scheme) + s(authority) + b"\x00" + fields + target.encode())

RANGES = ["bytes=0-499", "bytes=500-999", "bytes=-500", "bytes=9500-", "bytes=0-0,-1", "bytes=500-600,601-999",
          "bytes=500-700,601-999", "bytes=0-", "BYTES=1-2", "bytes=0-9, 10-19 ,20-29", "bytes=,0-1,", "items=0-1",
          "bytes=5-4", "bytes=0-99999999999999999999999", "bytes=-0", "bytes= 1-2", "bytes=1 - 2",
          "bytes=" + ",".join(f"{i}-{i}" for i in range(20))]
for index, header in enumerate(RANGES):
    mode = index % 4
    put("FuzzRange", bytes([mode]) + struct.pack("<q", 10000) + bytes([16, index & 1, 1]) + header.encode())

DATES = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
         "Mon, 29 Feb 2016 23:59:60 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT",
         "Sat, 01 Jan 0001 00:00:00 GMT", " Tue, 15 Nov 1994 12:45:26 GMT ", "Sun, 06 Nov 1994 08:49:37 UTC"]
TAGS = ['"xyzzy"', 'W/"xyzzy"', '"xyzzy", "r2d2xxxx", "c3piozzzz"', "*", '""', 'W/""', '"a",,"b"', '"\x80"', "xyzzy"]
for index in range(max(len(DATES), len(TAGS))):
    date, tag = DATES[index % len(DATES)], TAGS[index % len(TAGS)]
    put("FuzzConditional", struct.pack("<q", 784111777 + index * 86400 * 400) + bytes([index]) + s('"xyzzy"')
        + b"\x01" + struct.pack("<q", 784111777) + s(tag) + s(TAGS[(index + 3) % len(TAGS)]) + s(date)
        + s(DATES[(index + 1) % len(DATES)]) + s(tag if index % 2 else date) + date.encode())

for media in ["text/html", "text/html;charset=gbk", 'text/html; charset="utf-8"', "TEXT/HTML; CHARSET=UTF-8",
              'text/plain; charset="\\"x\\""', "application/json;;;charset=utf-8", "a/b; c=d; c=e",
              'text/html;charset="shift_jis"iso-2022-jp', "x/x;x=\"\"", "text/html;charset=", "/html", "text/",
              " text/html ; q = 1", "image/svg+xml", "multipart/byteranges; boundary=0123abc", "text/html;\u00e9=1"]:
    put("FuzzMediaType", media)

SNIFF = [b"<!DOCTYPE html><p>hi", b"  <html>", b"<?xml version='1.0'?>", b"%PDF-1.7", b"%!PS-Adobe-",
         b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"GIF89a\x01\x00", b"\xff\xd8\xff\xe0", b"RIFF\x00\x00\x00\x00WEBPVP8 ",
         b"BM\x00\x00", b"\x00\x00\x01\x00", b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom",
         b"\x1a\x45\xdf\xa3\x93\x42\x82\x84webm", b"ID3\x03\x00", b"\xff\xfb\x90\x00" + b"\x00" * 400 + b"\xff\xfb\x90\x00",
         b"OggS\x00", b"RIFF\x00\x00\x00\x00WAVE", b"PK\x03\x04", b"\x1f\x8b\x08", b"Rar!\x1a\x07\x00", b"wOFF", b"wOF2",
         b"\x00\x01\x00\x00", b"OTTO", b"ttcf", b"\xef\xbb\xbfhello", b"\xfe\xff\x00h", b"\xff\xfeh\x00", b"plain text\n",
         b"\x00\x01\x02", b"", b"\x00\x00\x00\x1cftypavif", b"<svg", b"<!-- c --><html>", b"a" * 1444 + b"\x00"]
for data in SNIFF:
    put("FuzzSniffer", data)

for path in ["/index.html", "/docs/a%20b.txt", "/a//b/", "/a..b.txt", "/..foo", "/%252e%252e/x", "/../etc/passwd",
             "/%2e%2e/etc", "/.%2e/x", "/..;/x", "/.;x/y", "/a%2fb", "/a%5cb", "/a\\b", "/a%00b", "/C:/x", "/%c0%ae%c0%ae/",
             "/%e2%80%ae", "/%c2%85", "/.hidden", "/x/%20../y", "/" + "a" * 255, "/" + "a" * 256, "/%", "/%g0", "relative"]:
    put("FuzzSafePath", b"\x00" + path.encode())
    put("FuzzSafePath", b"\x01" + path.encode())

def zips():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(f"{tmp}/site/css")
        with open(f"{tmp}/site/index.html", "w") as f:
            f.write("<!doctype html><p>hello</p>\n" * 3)
        with open(f"{tmp}/site/css/a.css", "w") as f:
            f.write("p{color:red}\n")
        with open(f"{tmp}/site/empty", "w") as f:
            pass
        os.symlink("index.html", f"{tmp}/site/link")
        for name, args in [("deflate", ["-r", "-9"]), ("store", ["-r", "-0"]), ("symlink", ["-r", "-y"]),
                           ("zip64", ["-r", "-fz"]), ("nodirs", ["-r", "-D"])]:
            out = f"{tmp}/{name}.zip"
            subprocess.run(["zip", "-q", *args, out, "."], cwd=f"{tmp}/site", check=True)
            with open(out, "rb") as f:
                yield f.read()
    # An empty archive: only the end of central directory record.
    yield b"PK\x05\x06" + b"\x00" * 18
    # A stored entry with a traversal name, built by hand.
    name, body = b"../evil.txt", b"evil"
    crc = zlib.crc32(body)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, crc, len(body), len(body), len(name), 0) + name + body
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, crc, len(body), len(body), len(name),
                          0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(local), 0)
    yield local + central + end

for data in zips():
    put("FuzzZip", data)

def har_seeds():
    """HAR files: Chromium's DevTools export (the test fixture), SchemeKit's own shape, and broken ones."""
    fixture = os.path.join(HERE, "..", "Tests", "Fixtures", "HAR", "chromium-devtools.har")
    with open(fixture, "rb") as f:
        chromium = f.read()
    yield chromium
    yield chromium[: len(chromium) // 2]            # truncated inside an entry
    entry = lambda url, text, extra="": (
        '{"startedDateTime":"2024-05-01T12:00:00.000Z","time":1.5,'
        f'"request":{{"method":"GET","url":"{url}","httpVersion":"HTTP/1.1","cookies":[],'
        '"headers":[{"name":"Range","value":"bytes=0-1"}],"queryString":[],"headersSize":-1,"bodySize":0},'
        f'"response":{{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","cookies":[],"headers":[],'
        f'"content":{{"size":5,"mimeType":"text/plain",{text}}},"redirectURL":"","headersSize":-1,"bodySize":5}},'
        f'"timings":{{"blocked":-1,"dns":-1,"connect":-1,"send":0,"wait":1,"receive":0.5,"ssl":-1}}{extra}}}')
    log = lambda entries: '{"log":{"version":"1.2","creator":{"name":"SchemeKit","version":"0.1.0"},"entries":[' + \
        ",".join(entries) + "]}}"
    yield log([entry("app://localhost/a?b=2&a=1", '"text":"hello"')])
    yield log([entry("https://x/img.png", '"text":"aGVsbG8=","encoding":"base64"', ',"_resourceType":"image"'),
               entry("https://x/big.bin", '"_file":"0123456789abcdef-5.bin"')])
    yield log([entry("https://x/\\u00e9\\ud83d\\ude00", '"text":"\\ud800 \\"q\\" \\n"', ',"_x":[1e3,-0.5,null,true,{}]')])
    yield '{"log":{"entries":[{"request":{"method":"POST","url":"https://x/f","postData":{"mimeType":' \
          '"application/x-www-form-urlencoded","params":[{"name":"a","value":"1"}]}},"response":{"status":0,' \
          '"content":{"size":0,"mimeType":"x-unknown"},"_error":"net::ERR_FAILED"}}]}}'
    yield '{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{"status":"200"}}]}}'
    yield "\ufeff" + '{"log":{"entries":[]}}'
    yield "[" * 600
    yield '{"log":{"entries":[1e999]}}'

for data in har_seeds():
    put("FuzzHAR", data)
