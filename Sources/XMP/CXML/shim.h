#ifndef ALBUM_CXML_SHIM_H
#define ALBUM_CXML_SHIM_H
#include <stddef.h>
#include <string.h>
/* Debian builds libxml2 with ICU, and encoding.h then includes ICU's headers, whose types clash with the copy of ICU
   Foundation carries (`_FoundationICU`: "'UErrorCode' has different definitions in different modules"). album uses
   no ICU converter: the flag is dropped before encoding.h reads it. It only adds fields at the end of
   xmlCharEncodingHandler, which album never touches (it is reached through pointers only). */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

/* The loader libxml2 asks for every external entity and DTD: album never loads one, from a file or the network
   (XXE), whatever the document declares. NULL makes libxml2 report the load as failed. */
static inline xmlParserInputPtr album_xml_no_external(const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url; (void)id; (void)context;
    return NULL;
}

/* Once, before the first parse (libxml2's rule for threads: xmlInitParser from one thread first). */
static inline void album_xml_start(void) {
    xmlInitParser();
    xmlSetExternalEntityLoader(album_xml_no_external);
}

/* The first error libxml2 raises while parsing: its message and line. The context's own (`xmlCtxtGetLastError`)
   is the last one, often a consequence ("Premature end of data") of the first ("Opening and ending tag mismatch"). */
typedef struct {
    int set;
    int line;
    char message[512];
} album_xml_error;

static inline void album_xml_keep_first(void *data, xmlErrorPtr error) {
    album_xml_error *first = (album_xml_error *)data;
    if (!first || first->set || !error || error->level < XML_ERR_ERROR) return;
    first->set = 1;
    first->line = error->line;
    if (error->message) {
        strncpy(first->message, error->message, sizeof first->message - 1);
        first->message[sizeof first->message - 1] = 0;
    }
}

/* Parses `size` bytes with `options` (`XMLTree.options`), keeping the first error in `first`. libxml2's structured error handler
   is per thread in a threaded build (as Debian's is), so workers parsing at once each keep their own. */
static inline xmlDocPtr album_xml_read(xmlParserCtxtPtr context, const char *bytes, int size, int options,
                                       album_xml_error *first) {
    xmlSetStructuredErrorFunc(first, album_xml_keep_first);
    xmlDocPtr document = xmlCtxtReadMemory(context, bytes, size, NULL, NULL, options);
    xmlSetStructuredErrorFunc(NULL, NULL);
    return document;
}
#endif
