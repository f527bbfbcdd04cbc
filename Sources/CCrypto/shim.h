// OpenSSL's libcrypto, for SHA-256 only (the history store's entry names, HistoryKey): its
// block function uses the CPU's SHA extensions or AVX2 where there are any, about 20 times
// the speed of SHA-256 written in Swift. The low-level SHA256_CTX functions, not EVP: the
// context is a plain struct, so the Swift hash stays a value (copied with its state) and
// needs no allocation or free. OpenSSL 3.0 marks them deprecated (for EVP) but keeps them, and
// they run the same block function; the mark is turned off here so the build has no warning.
#ifndef SWIFTPAINT_CCRYPTO_SHIM_H
#define SWIFTPAINT_CCRYPTO_SHIM_H
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#endif
