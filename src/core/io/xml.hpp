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
// Safe for untrusted input: bounded by the end of the text, nesting limited to 64 levels,
// and every malformed construct raises ReadError with its byte offset and line.
#pragma once

#include <cstddef>
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

}  // namespace meshioplusplus::io
