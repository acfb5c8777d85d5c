#ifndef SCHEMEKIT_CWEBKITGTK_SHIM_H
#define SCHEMEKIT_CWEBKITGTK_SHIM_H

#include <webkit/webkit.h>
#include <gio/gio.h>

/* Function-like macros Swift cannot import, as inline functions. */

static inline GQuark schemekit_io_error_quark(void) { return G_IO_ERROR; }

static inline gulong schemekit_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

#endif
