#ifndef SCHEMEKIT_CGSTREAMERBASE_SHIM_H
#define SCHEMEKIT_CGSTREAMERBASE_SHIM_H
/* GStreamer's base classes, for the media extension's source element (C only). */
#include <gst/base/gstbasesrc.h>
#endif
