#ifndef ALBUM_CCRYPTO_SHIM_H
#define ALBUM_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/err.h>
#endif
