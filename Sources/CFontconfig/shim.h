// fontconfig: the installed font families, and the file that best matches a family, weight and
// slant (the text tool's font chooser).
#ifndef SWIFTPAINT_CFONTCONFIG_SHIM_H
#define SWIFTPAINT_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>
#endif
