/*
 * SchemeKit's WebKitGTK web process extension: media (<video>, <audio>) on the app's custom schemes.
 *
 * Built as the dynamic library product `SchemeKitWebKitGTKMedia` (package trait `WebKitGTK`).
 * `WebKitSchemeAdapter` hands it to WebKit (`webkit_web_context_set_web_process_extensions_directory`);
 * each web process then registers a seekable GStreamer source element, `schemekitsrc`, for the
 * schemes the adapter serves. The element asks the UI process for (offset → end) ranges over a
 * Unix socket the extension passes to the UI process once, in a WebKit user message; each range is
 * a request through the app's `SchemeRegistry` (a `Range` request past offset 0).
 *
 * Wire format (host byte order, both ends on one machine):
 * - control socket (SOCK_SEQPACKET), web process → UI: one `SchemeKitMediaRequest` followed by the
 *   URI's bytes, with one file descriptor attached (SCM_RIGHTS): the response socket.
 * - response socket (SOCK_STREAM), UI → web process: one `SchemeKitMediaResponse`, then
 *   `message_length` bytes of error text, then the body until end of file. The web process closes
 *   it to stop the request.
 */
#ifndef SCHEMEKIT_WEBKITGTK_MEDIA_H
#define SCHEMEKIT_WEBKITGTK_MEDIA_H

#include <stdint.h>

/** The user message the extension sends once per web process, with the control socket attached. */
#define SCHEMEKIT_MEDIA_CONNECT_MESSAGE "SchemeKit.media.connect"
/**
 * The marker a real extension carries in its read-only data (`schemekit_media_extension_marker`),
 * which the UI process looks for before it hands the file to WebKit: a build without the trait
 * `WebKitGTK` leaves a library without it, and one of another wire format has another number. Keep
 * it equal to `WebKitSchemeAdapter.mediaExtensionMarker`.
 */
#define SCHEMEKIT_MEDIA_EXTENSION_MARKER "SchemeKitWebKitGTKMedia extension, wire format SKM1"
/** `SchemeKitMediaRequest.magic` and `SchemeKitMediaResponse.magic`: "SKM1". */
#define SCHEMEKIT_MEDIA_MAGIC 0x314d4b53u

/** A range request: the body of `uri` from `offset` to its end. */
typedef struct {
    uint32_t magic;
    uint32_t uri_length;
    uint64_t offset;
} SchemeKitMediaRequest;

/** The answer's head: HTTP status, the resource's total size (-1: unknown), where the body starts. */
typedef struct {
    uint32_t magic;
    int32_t status;
    int64_t total_size;
    int64_t offset;
    uint32_t message_length;
    uint32_t reserved;
} SchemeKitMediaResponse;

#endif
