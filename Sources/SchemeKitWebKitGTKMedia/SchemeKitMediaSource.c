/*
 * The web process side of SchemeKit's media bridge: a WebKitGTK web process extension that
 * registers `schemekitsrc`, a seekable GStreamer source for the app's custom schemes (see
 * include/SchemeKitWebKitGTKMedia.h for the wire format).
 *
 * Built only with the package trait `WebKitGTK` (it needs WebKitGTK's and GStreamer's headers), which
 * defines SCHEMEKIT_WEBKITGTK for this target.
 */
#if defined(SCHEMEKIT_WEBKITGTK)

#include "SchemeKitWebKitGTKMedia.h"

#include <errno.h>
#include <gst/base/gstbasesrc.h>
#include <gst/gst.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <webkit/webkit-web-process-extension.h>

/* What the UI process checks for before it loads this library (see the header). */
__attribute__((used, visibility("default"))) const char schemekit_media_extension_marker[] =
    SCHEMEKIT_MEDIA_EXTENSION_MARKER;

/* The schemes served by the UI process (NULL-terminated), set once at initialisation. */
static gchar **schemekit_schemes = NULL;
/* This end of the control socket; -1 until initialised. */
static int schemekit_control_fd = -1;
static GMutex schemekit_control_lock;

/* Bytes asked of the UI per `create` call. */
#define SCHEMEKIT_BLOCK_SIZE (64 * 1024)

/* ---- The element ---------------------------------------------------------------------------- */

typedef struct {
    GstBaseSrc parent;
    GMutex lock;       /* guards uri, fd and flushing */
    gchar *uri;
    int fd;            /* the open response socket, or -1 */
    gboolean flushing; /* set by unlock(): a blocked read must return */
    guint64 position;  /* offset of the next byte `fd` gives */
    gint64 size;       /* the resource's size, -1 when unknown */
} SchemeKitMediaSrc;

typedef struct {
    GstBaseSrcClass parent_class;
} SchemeKitMediaSrcClass;

static void schemekit_media_src_uri_handler_init(gpointer iface, gpointer data);

G_DEFINE_TYPE_WITH_CODE(
    SchemeKitMediaSrc, schemekit_media_src, GST_TYPE_BASE_SRC,
    G_IMPLEMENT_INTERFACE(GST_TYPE_URI_HANDLER, schemekit_media_src_uri_handler_init))

#define SCHEMEKIT_MEDIA_SRC(obj) ((SchemeKitMediaSrc *)(obj))

enum { PROP_0, PROP_LOCATION };

static GstStaticPadTemplate schemekit_src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

/* Reads exactly `length` bytes unless end of file or an error comes first; returns the count, or -1. */
static gssize schemekit_read_fully(int fd, void *buffer, gsize length) {
    gsize done = 0;
    while (done < length) {
        ssize_t n = read(fd, (char *)buffer + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return done > 0 ? (gssize)done : -1;
        if (n == 0) break;
        done += (gsize)n;
    }
    return (gssize)done;
}

/* Sends a request for `uri` from `offset` over the control socket; returns the response socket. */
static int schemekit_send_request(const char *uri, guint64 offset) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) return -1;
    SchemeKitMediaRequest request = {SCHEMEKIT_MEDIA_MAGIC, (uint32_t)strlen(uri), offset};
    struct iovec iov[2] = {{&request, sizeof request}, {(void *)uri, strlen(uri)}};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {0};
    message.msg_iov = iov;
    message.msg_iovlen = 2;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &pair[1], sizeof(int));
    g_mutex_lock(&schemekit_control_lock);
    ssize_t sent = schemekit_control_fd >= 0 ? sendmsg(schemekit_control_fd, &message, MSG_NOSIGNAL) : -1;
    g_mutex_unlock(&schemekit_control_lock);
    close(pair[1]);
    if (sent < 0) {
        close(pair[0]);
        return -1;
    }
    return pair[0];
}

static void schemekit_close_locked(SchemeKitMediaSrc *self) {
    if (self->fd >= 0) close(self->fd);
    self->fd = -1;
}

/* Opens the range `offset`… of the element's URI: the response head is read, the body is next. */
static GstFlowReturn schemekit_open(SchemeKitMediaSrc *self, guint64 offset) {
    g_mutex_lock(&self->lock);
    schemekit_close_locked(self);
    gchar *uri = g_strdup(self->uri);
    gboolean flushing = self->flushing;
    g_mutex_unlock(&self->lock);
    if (flushing) {
        g_free(uri);
        return GST_FLOW_FLUSHING;
    }
    if (uri == NULL) {
        GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND, ("No URI set"), (NULL));
        return GST_FLOW_ERROR;
    }
    int fd = schemekit_send_request(uri, offset);
    if (fd < 0) {
        GST_ELEMENT_ERROR(self, RESOURCE, OPEN_READ, ("SchemeKit's media bridge is not connected"),
                          ("%s: %s", uri, g_strerror(errno)));
        g_free(uri);
        return GST_FLOW_ERROR;
    }
    g_mutex_lock(&self->lock);
    self->fd = fd;
    flushing = self->flushing;
    g_mutex_unlock(&self->lock);
    if (flushing) {
        g_free(uri);
        return GST_FLOW_FLUSHING;
    }
    SchemeKitMediaResponse head;
    gssize n = schemekit_read_fully(fd, &head, sizeof head);
    if (n != (gssize)sizeof head || head.magic != SCHEMEKIT_MEDIA_MAGIC) {
        g_free(uri);
        g_mutex_lock(&self->lock);
        flushing = self->flushing;
        g_mutex_unlock(&self->lock);
        if (flushing) return GST_FLOW_FLUSHING;
        GST_ELEMENT_ERROR(self, RESOURCE, READ, ("The app's scheme gave no response"), ("%s", uri));
        return GST_FLOW_ERROR;
    }
    gchar *text = g_malloc0(head.message_length + 1);
    if (head.message_length > 0) schemekit_read_fully(fd, text, head.message_length);
    if (head.status == 416) {
        /* Past the end: an empty body. */
        g_free(text);
        g_free(uri);
        self->position = offset;
        return GST_FLOW_EOS;
    }
    if (head.status != 200 && head.status != 206) {
        if (head.status == 404 || head.status == 410)
            GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND, ("%s", text), ("%s: status %d", uri, head.status));
        else
            GST_ELEMENT_ERROR(self, RESOURCE, OPEN_READ, ("%s", text), ("%s: status %d", uri, head.status));
        g_free(text);
        g_free(uri);
        return GST_FLOW_ERROR;
    }
    g_free(text);
    g_free(uri);
    if (head.total_size >= 0) self->size = head.total_size;
    guint64 start = head.offset >= 0 ? (guint64)head.offset : 0;
    /* A handler that ignored the Range header answers from 0: skip to the offset asked for. */
    char discard[16 * 1024];
    while (start < offset) {
        gsize chunk = MIN(sizeof discard, offset - start);
        gssize got = schemekit_read_fully(fd, discard, chunk);
        if (got <= 0) return GST_FLOW_EOS;
        start += (guint64)got;
    }
    self->position = start;
    return GST_FLOW_OK;
}

static gboolean schemekit_start(GstBaseSrc *base) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(base);
    self->size = -1;
    self->position = 0;
    return schemekit_open(self, 0) == GST_FLOW_OK;
}

static gboolean schemekit_stop(GstBaseSrc *base) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(base);
    g_mutex_lock(&self->lock);
    schemekit_close_locked(self);
    g_mutex_unlock(&self->lock);
    return TRUE;
}

static gboolean schemekit_get_size(GstBaseSrc *base, guint64 *size) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(base);
    if (self->size < 0) return FALSE;
    *size = (guint64)self->size;
    return TRUE;
}

static gboolean schemekit_is_seekable(GstBaseSrc *base) {
    return SCHEMEKIT_MEDIA_SRC(base)->size >= 0;
}

static gboolean schemekit_unlock(GstBaseSrc *base) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(base);
    g_mutex_lock(&self->lock);
    self->flushing = TRUE;
    if (self->fd >= 0) shutdown(self->fd, SHUT_RDWR);
    g_mutex_unlock(&self->lock);
    return TRUE;
}

static gboolean schemekit_unlock_stop(GstBaseSrc *base) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(base);
    g_mutex_lock(&self->lock);
    self->flushing = FALSE;
    /* A socket shut down by unlock() cannot be read again. */
    schemekit_close_locked(self);
    g_mutex_unlock(&self->lock);
    return TRUE;
}

static GstFlowReturn schemekit_create(GstBaseSrc *base, guint64 offset, guint length, GstBuffer **out) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(base);
    if (self->size >= 0 && offset >= (guint64)self->size) return GST_FLOW_EOS;
    g_mutex_lock(&self->lock);
    int fd = self->fd;
    g_mutex_unlock(&self->lock);
    if (fd < 0 || offset != self->position) {
        GstFlowReturn opened = schemekit_open(self, offset);
        if (opened != GST_FLOW_OK) return opened;
        g_mutex_lock(&self->lock);
        fd = self->fd;
        g_mutex_unlock(&self->lock);
    }
    if (self->size >= 0 && offset + length > (guint64)self->size) length = (guint)((guint64)self->size - offset);
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, length, NULL);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_WRITE);
    gssize n = schemekit_read_fully(fd, map.data, length);
    gst_buffer_unmap(buffer, &map);
    g_mutex_lock(&self->lock);
    gboolean flushing = self->flushing;
    if (n <= 0) schemekit_close_locked(self);
    g_mutex_unlock(&self->lock);
    if (flushing) {
        gst_buffer_unref(buffer);
        return GST_FLOW_FLUSHING;
    }
    if (n <= 0) {
        gst_buffer_unref(buffer);
        if (n < 0 || (self->size >= 0 && offset < (guint64)self->size)) {
            GST_ELEMENT_ERROR(self, RESOURCE, READ, ("The app's scheme ended the body early"),
                              ("at offset %" G_GUINT64_FORMAT, offset));
            return GST_FLOW_ERROR;
        }
        return GST_FLOW_EOS;
    }
    gst_buffer_set_size(buffer, (gsize)n);
    GST_BUFFER_OFFSET(buffer) = offset;
    GST_BUFFER_OFFSET_END(buffer) = offset + (guint64)n;
    self->position = offset + (guint64)n;
    *out = buffer;
    return GST_FLOW_OK;
}

static void schemekit_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(object);
    if (id == PROP_LOCATION) {
        g_mutex_lock(&self->lock);
        g_free(self->uri);
        self->uri = g_value_dup_string(value);
        g_mutex_unlock(&self->lock);
    } else {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void schemekit_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(object);
    if (id == PROP_LOCATION) {
        g_mutex_lock(&self->lock);
        g_value_set_string(value, self->uri);
        g_mutex_unlock(&self->lock);
    } else {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void schemekit_finalize(GObject *object) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(object);
    schemekit_close_locked(self);
    g_free(self->uri);
    g_mutex_clear(&self->lock);
    G_OBJECT_CLASS(schemekit_media_src_parent_class)->finalize(object);
}

static void schemekit_media_src_class_init(SchemeKitMediaSrcClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->set_property = schemekit_set_property;
    object_class->get_property = schemekit_get_property;
    object_class->finalize = schemekit_finalize;
    g_object_class_install_property(
        object_class, PROP_LOCATION,
        g_param_spec_string("location", "Location", "The URI on the app's scheme", NULL,
                            (GParamFlags)(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS)));
    GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
    gst_element_class_add_static_pad_template(element_class, &schemekit_src_template);
    gst_element_class_set_static_metadata(element_class, "SchemeKit scheme source", "Source/Network",
                                          "Reads the app's custom scheme through SchemeKit's registry",
                                          "SchemeKit");
    GstBaseSrcClass *base_class = GST_BASE_SRC_CLASS(klass);
    base_class->start = schemekit_start;
    base_class->stop = schemekit_stop;
    base_class->get_size = schemekit_get_size;
    base_class->is_seekable = schemekit_is_seekable;
    base_class->unlock = schemekit_unlock;
    base_class->unlock_stop = schemekit_unlock_stop;
    base_class->create = schemekit_create;
}

static void schemekit_media_src_init(SchemeKitMediaSrc *self) {
    g_mutex_init(&self->lock);
    self->fd = -1;
    self->size = -1;
    gst_base_src_set_format(GST_BASE_SRC(self), GST_FORMAT_BYTES);
    gst_base_src_set_blocksize(GST_BASE_SRC(self), SCHEMEKIT_BLOCK_SIZE);
}

/* ---- URI handler ---------------------------------------------------------------------------- */

static GstURIType schemekit_uri_get_type(GType type) {
    (void)type;
    return GST_URI_SRC;
}

static const gchar *const *schemekit_uri_get_protocols(GType type) {
    (void)type;
    static const gchar *none[] = {NULL};
    return schemekit_schemes ? (const gchar *const *)schemekit_schemes : none;
}

static gchar *schemekit_uri_get_uri(GstURIHandler *handler) {
    SchemeKitMediaSrc *self = SCHEMEKIT_MEDIA_SRC(handler);
    g_mutex_lock(&self->lock);
    gchar *uri = g_strdup(self->uri);
    g_mutex_unlock(&self->lock);
    return uri;
}

static gboolean schemekit_uri_set_uri(GstURIHandler *handler, const gchar *uri, GError **error) {
    GstState state = GST_STATE(handler);
    if (state != GST_STATE_NULL && state != GST_STATE_READY) {
        g_set_error(error, GST_URI_ERROR, GST_URI_ERROR_BAD_STATE, "Changing the URI while playing is not supported");
        return FALSE;
    }
    g_object_set(handler, "location", uri, NULL);
    return TRUE;
}

static void schemekit_media_src_uri_handler_init(gpointer iface, gpointer data) {
    (void)data;
    GstURIHandlerInterface *handler = (GstURIHandlerInterface *)iface;
    handler->get_type = schemekit_uri_get_type;
    handler->get_protocols = schemekit_uri_get_protocols;
    handler->get_uri = schemekit_uri_get_uri;
    handler->set_uri = schemekit_uri_set_uri;
}

/* ---- Extension entry point ------------------------------------------------------------------ */

/*
 * Called by WebKit in each new web process. `user_data` is `(as)`: the schemes to serve
 * (`webkit_web_context_set_web_process_extensions_initialization_user_data`). Creates the control
 * socket, passes one end to the UI process in a user message, and registers `schemekitsrc` for the
 * schemes with a rank above every other source.
 */
G_MODULE_EXPORT void webkit_web_process_extension_initialize_with_user_data(WebKitWebProcessExtension *extension,
                                                                            const GVariant *user_data) {
    GVariant *data = (GVariant *)user_data;
    if (data == NULL || !g_variant_is_of_type(data, G_VARIANT_TYPE("(as)"))) return;
    g_variant_get(data, "(^as)", &schemekit_schemes);
    if (schemekit_schemes == NULL || schemekit_schemes[0] == NULL) return;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0) {
        g_warning("SchemeKit media: socketpair: %s", g_strerror(errno));
        return;
    }
    schemekit_control_fd = pair[0];
    GUnixFDList *fds = g_unix_fd_list_new_from_array(&pair[1], 1); /* takes pair[1] */
    WebKitUserMessage *message = webkit_user_message_new_with_fd_list(SCHEMEKIT_MEDIA_CONNECT_MESSAGE, NULL, fds);
    webkit_web_process_extension_send_message_to_context(extension, message, NULL, NULL, NULL);
    g_object_unref(fds);
    GError *error = NULL;
    if (!gst_init_check(NULL, NULL, &error)) {
        g_warning("SchemeKit media: GStreamer: %s", error ? error->message : "cannot initialise");
        g_clear_error(&error);
        return;
    }
    gst_element_register(NULL, "schemekitsrc", GST_RANK_PRIMARY + 100, schemekit_media_src_get_type());
}

#endif
