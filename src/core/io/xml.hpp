// meshio++ core I/O: a small XML reader (no dependency), written for VTK's XML files and
// used by every XML-based format.
//
// It builds an element tree of views into the file bytes: names, attributes (entity-
// decoded), and for leaf elements the span of their text (DataArray contents are parsed
// in place later, never copied). It understands the prolog (<?xml?>, comments, DOCTYPE),
// elements, attributes in ' or " quotes, the five predefined entities and character
// references. <AppendedData encoding="raw"> holds arbitrary bytes after its '_' marker, so
// the reader stops there and reports where the raw bytes begin; they end at the last
// "</AppendedData>" of the file (or the end of the file when it is cut short).
//
// Large files of one element per row (DOLFIN XML's <vertex>, <tetrahedron>) are read
// with a sink: it sees every element once complete, with its open ancestors (root first),
// and returns true to consume it, so the tree never holds the rows. Consumed elements
// reuse one buffer per depth: a row costs no allocation once the first is read. A reader
// may also parse a list's rows itself (XmlRowsHook), the parser going on after them.
//
// Safe for untrusted input: bounded by the end of the text, nesting limited to 64 levels,
// and every malformed construct raises ReadError with its byte offset and line.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/cursor.hpp"

namespace meshioplusplus::io {

struct XmlAttribute {
  std::string_view name;
  std::string value;
};

struct XmlElement {
  std::string_view name;
  std::vector<XmlAttribute> attributes;
  std::vector<XmlElement> children;
  const char* begin = nullptr;       // the '<' of the start tag
  const char* text_begin = nullptr;  // text before the first child or the end tag
  const char* text_end = nullptr;

  const std::string* attribute(std::string_view key) const {
    for (const auto& a : attributes)
      if (a.name == key) return &a.value;
    return nullptr;
  }
  std::string_view text() const { return {text_begin, static_cast<std::size_t>(text_end - text_begin)}; }
};

struct XmlDocument {
  XmlElement root;
  const char* raw_begin = nullptr;  // raw appended bytes (after '_'), nullptr when none
  const char* raw_end = nullptr;
};

// Parses the text of `cursor` from its position (a copy walks it; errors are the cursor's
// ReadError, with the file, line and byte).
XmlDocument parse_xml(const io::Cursor& cursor);

// Called for each complete element below the root with its open ancestors (root first,
// the parent last); true consumes it (it stays out of its parent's children). The element
// and its attribute values live only for the call.
using XmlSink = std::function<bool(const XmlElement& element, std::span<const XmlElement* const> ancestors)>;
XmlDocument parse_xml(const io::Cursor& cursor, const XmlSink& sink);

// With a sink, `rows` may take over the start of an element's content: it is called once
// the start tag of an element with content is read (with the element, its open ancestors
// and where the content begins) and returns where the parser goes on, at or after
// `content`, having consumed what lies between itself (a reader's fast path over a list of
// uniform rows). Returning `content` leaves everything to the parser.
using XmlRowsHook = std::function<const char*(const XmlElement& element, std::span<const XmlElement* const> ancestors, const char* content)>;
XmlDocument parse_xml(const io::Cursor& cursor, const XmlSink& sink, const XmlRowsHook& rows);

// `text` with &, <, > and " escaped, for an attribute value or element text a writer emits.
std::string xml_escape(std::string_view text);

}  // namespace meshioplusplus::io
