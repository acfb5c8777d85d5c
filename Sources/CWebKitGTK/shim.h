#ifndef SCHEMEKIT_CWEBKITGTK_SHIM_H
#define SCHEMEKIT_CWEBKITGTK_SHIM_H

#include <webkit/webkit.h>
#include <gio/gio.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Function-like macros Swift cannot import, as inline functions. */

static inline GQuark schemekit_io_error_quark(void) { return G_IO_ERROR; }

static inline gulong schemekit_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

/* A web view on `context` (WebKitGTK 6 has no constructor for it: the property is construct-only). */
static inline GtkWidget *schemekit_web_view_new_with_context(WebKitWebContext *context) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, NULL));
}

/* A web view on `context` whose network requests go through `session` (both construct-only). */
static inline GtkWidget *schemekit_web_view_new_with_session(WebKitWebContext *context, WebKitNetworkSession *session) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, "network-session", session, NULL));
}

/* Receives one message (SOCK_SEQPACKET) with at most one attached file descriptor (*fd, -1 when
   none; extra ones are closed). Returns the byte count, 0 at end of stream, -1 on error. */
static inline ssize_t schemekit_receive_with_fd(int socket, void *buffer, size_t length, int *fd) {
    *fd = -1;
    struct iovec iov = {buffer, length};
    union {
        char buffer[CMSG_SPACE(sizeof(int) * 8)];
        struct cmsghdr align;
    } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    ssize_t n;
    do { n = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); } while (n < 0 && errno == EINTR);
    if (n < 0) return n;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&message); h != NULL; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int received;
            memcpy(&received, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
            if (*fd < 0) *fd = received; else close(received);
        }
    }
    return n;
}

/* Whether the peer of a stream socket has closed it (or it broke), without blocking or consuming. */
static inline int schemekit_peer_closed(int socket) {
    char byte;
    ssize_t n = recv(socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Writes all of `buffer` to a socket without raising SIGPIPE. Returns 0, or errno. */
static inline int schemekit_send_all(int socket, const void *buffer, size_t length) {
    size_t done = 0;
    while (done < length) {
        ssize_t n = send(socket, (const char *)buffer + done, length - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        done += (size_t)n;
    }
    return 0;
}

#endif
