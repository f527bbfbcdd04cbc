// OpenSSL's libcrypto, for SHA-256 only (the history store's entry names, HistoryKey): its
// block function uses the CPU's SHA extensions or AVX2 where there are any, about 20 times
// the speed of SHA-256 written in Swift. The low-level SHA256_CTX functions, not EVP: the
// context is a plain struct, so the Swift hash stays a value (copied with its state) and
// needs no allocation or free. OpenSSL 3.0 marks them deprecated (for EVP) but keeps them, and
// they run the same block function; the mark is turned off here so the build has no warning.
//
// Linked statically (module.modulemap: `link ":libcrypto.a"`, from the same libssl-dev): the
// program takes SHA-256 and the CPU check that picks its block function, about 22 KB, where
// loading the shared libcrypto.so.3 at start-up relocated and touched 1.45 MB of it (peak RSS
// of a 1080p picture after a stroke 28.9-29.0 MB with it, 27.4-27.6 without). The
// same code and digest. The module was CCrypto while it linked the shared library: renamed, so
// every build compiles again what imports it (each object carried its "-lcrypto").
#ifndef SWIFTPAINT_CSHA256_SHIM_H
#define SWIFTPAINT_CSHA256_SHIM_H
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#endif
