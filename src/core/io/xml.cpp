// meshio++ core I/O: the small XML reader (see xml.hpp), shared by every XML-based format.
// Spec: https://www.w3.org/TR/xml/ (the subset VTK writes).
#include "core/io/xml.hpp"

#include <cstring>

namespace meshioplusplus::io {

namespace {

constexpr int kMaxDepth = 64;

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == ':' || static_cast<unsigned char>(c) >= 0x80;
}

// The parser walks the file with an io::Cursor: its position, bounds and errors.
class Parser {
 public:
  Parser(const io::Cursor& cursor, const XmlSink* sink, const XmlRowsHook* rows = nullptr) : cur_(cursor), sink_(sink), rows_(rows) {
    if (sink_) scratch_.resize(kMaxDepth + 2);
  }

  XmlDocument parse() {
    XmlDocument doc;
    doc_ = &doc;
    skip_misc();
    if (!cur_.starts_with("<")) expected("the root element '<VTKFile'");
    parse_element(doc.root, 0);
    if (!stopped_) {
      skip_misc();
      if (!cur_.at_end()) expected("the end of the file after the root element");
    }
    return doc;
  }

 private:
  [[noreturn]] void fail(std::string_view what) const { cur_.fail(what); }
  [[noreturn]] void expected(std::string_view what) const { cur_.fail_expected(what); }

  bool starts(std::string_view s) const { return cur_.starts_with(s); }
  bool next_is(char c) const { return !cur_.at_end() && *cur_.ptr() == c; }  // one character, no memcmp
  void skip_space() { cur_.skip_space(); }
  // The current character (the cursor must not be at the end).
  char peek() const { return *cur_.ptr(); }
  void advance(std::size_t n) { cur_.take(n, "XML"); }
  // Skips to just past `terminator`; fails naming `what` when it never comes.
  void skip_past(std::string_view terminator, std::string_view what) {
    const auto at = cur_.rest().find(terminator);
    if (at == std::string_view::npos) fail(std::string("unterminated ") + std::string(what));
    advance(at + terminator.size());
  }
  // Whitespace, comments, processing instructions and DOCTYPE between elements.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts("<?")) skip_past("?>", "processing instruction");
      else if (starts("<!--")) skip_past("-->", "comment");
      else if (starts("<!DOCTYPE")) skip_past(">", "DOCTYPE");
      else if (starts("\xEF\xBB\xBF")) advance(3);
      else return;
    }
  }

  std::string_view name() {
    const char* start = cur_.ptr();
    const char* p = start;
    while (p != cur_.end() && is_name_char(*p)) ++p;
    if (p == start) expected("an XML name");
    cur_.set_ptr(p);
    return {start, static_cast<std::size_t>(p - start)};
  }

  std::string decode_entities(const char* b, const char* e) {
    std::string out;
    out.reserve(static_cast<std::size_t>(e - b));
    while (b != e) {
      if (*b != '&') {
        out.push_back(*b++);
        continue;
      }
      const char* semi = static_cast<const char*>(std::memchr(b, ';', static_cast<std::size_t>(e - b)));
      if (!semi || semi - b > 12) cur_.fail_at("unterminated XML entity", b);
      std::string_view ent(b + 1, static_cast<std::size_t>(semi - b - 1));
      if (ent == "lt") out.push_back('<');
      else if (ent == "gt") out.push_back('>');
      else if (ent == "amp") out.push_back('&');
      else if (ent == "quot") out.push_back('"');
      else if (ent == "apos") out.push_back('\'');
      else if (ent.size() >= 2 && ent[0] == '#') {
        const bool hex = ent[1] == 'x' || ent[1] == 'X';
        std::string_view digits = ent.substr(hex ? 2 : 1);
        unsigned long cp = 0;
        auto r = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
        if (digits.empty() || r.ec != std::errc{} || r.ptr != digits.data() + digits.size() || cp == 0 || cp > 0x10FFFF)
          cur_.fail_at("invalid XML character reference", b);
        // UTF-8 encode.
        if (cp < 0x80) out.push_back(static_cast<char>(cp));
        else if (cp < 0x800) out.push_back(static_cast<char>(0xC0 | (cp >> 6))), out.push_back(static_cast<char>(0x80 | (cp & 63)));
        else if (cp < 0x10000)
          out.push_back(static_cast<char>(0xE0 | (cp >> 12))), out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 63))),
              out.push_back(static_cast<char>(0x80 | (cp & 63)));
        else
          out.push_back(static_cast<char>(0xF0 | (cp >> 18))), out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 63))),
              out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 63))), out.push_back(static_cast<char>(0x80 | (cp & 63)));
      } else {
        cur_.fail_at("unknown XML entity '&" + std::string(ent) + ";'", b);
      }
      b = semi + 1;
    }
    return out;
  }

  void parse_element(XmlElement& el, int depth) {
    if (depth > kMaxDepth) fail("XML elements nested deeper than 64 levels");
    el.begin = cur_.ptr();
    el.children.clear();
    advance(1);  // '<'
    el.name = name();
    // Attributes, into the element's existing slots first (a sink's reused element keeps
    // its strings' capacity).
    std::size_t na = 0;
    for (;;) {
      skip_space();
      if (cur_.at_end()) fail("the file ends inside the start tag <" + std::string(el.name) + ">");
      if (next_is('/')) {
        advance(1);
        if (!next_is('>')) expected("'>' after '/'");
        advance(1);
        el.attributes.resize(na);
        el.text_begin = el.text_end = cur_.ptr();
        return;
      }
      if (next_is('>')) {
        advance(1);
        el.attributes.resize(na);
        break;
      }
      if (na == el.attributes.size()) el.attributes.emplace_back();
      XmlAttribute& a = el.attributes[na];
      a.name = name();
      skip_space();
      if (!next_is('=')) expected("'=' after attribute " + std::string(a.name));
      advance(1);
      skip_space();
      if (!next_is('"') && !next_is('\'')) expected("a quoted attribute value");
      const char quote = peek();
      advance(1);
      // One pass to the closing quote, noting '<' (an error) and '&' (entities to decode).
      const char* vb = cur_.ptr();
      const char* ve = vb;
      bool amp = false;
      while (ve != cur_.end() && *ve != quote) {
        if (*ve == '<') cur_.fail_at("'<' inside an attribute value", vb);
        amp = amp || *ve == '&';
        ++ve;
      }
      if (ve == cur_.end()) fail("unterminated attribute value of " + std::string(a.name));
      if (amp) a.value = decode_entities(vb, ve);
      else a.value.assign(vb, ve);
      cur_.set_ptr(ve + 1);
      for (std::size_t i = 0; i < na; ++i)
        if (el.attributes[i].name == a.name) cur_.fail_at("duplicate attribute " + std::string(a.name), vb);
      ++na;
    }
    // Raw appended data: arbitrary bytes follow the '_' marker; stop parsing here.
    if (el.name == "AppendedData") {
      const std::string* enc = el.attribute("encoding");
      if (enc && *enc == "raw") {
        skip_space();
        if (!next_is('_')) expected("'_' opening the raw appended data");
        advance(1);
        doc_->raw_begin = cur_.ptr();
        const auto close = cur_.rest().rfind("</AppendedData>");
        doc_->raw_end = close == std::string_view::npos ? cur_.end() : cur_.ptr() + close;
        el.text_begin = el.text_end = cur_.ptr();
        stopped_ = true;
        return;
      }
    }
    if (rows_) {
      const char* content = cur_.ptr();
      const char* resume = (*rows_)(el, open_, content);
      if (resume < content || resume > cur_.end()) fail("internal: a rows hook resumed outside the content");
      cur_.set_ptr(resume);
    }
    // Content: text, children, comments, end tag.
    // The element's text is its last non-blank text segment (VTK writes a DataArray's data
    // after its <InformationKey> children), else its first segment.
    el.text_begin = cur_.ptr();
    bool have_text = false, have_nonblank = false;
    for (;;) {
      const char* seg = cur_.ptr();
      const char* lt = static_cast<const char*>(std::memchr(seg, '<', cur_.left()));
      if (!lt) {
        cur_.set_ptr(cur_.end());
        fail("the file ends inside <" + std::string(el.name) + "> (no end tag)");
      }
      cur_.set_ptr(lt);
      bool blank = true;
      for (const char* q = seg; q != lt && blank; ++q) blank = io::is_space(*q);
      if (!have_text || (!blank && !have_nonblank)) {
        el.text_begin = seg, el.text_end = lt, have_text = true;
      } else if (!blank) {
        cur_.fail_at("<" + std::string(el.name) + "> holds text in more than one place", seg);
      }
      have_nonblank = have_nonblank || !blank;
      if (starts("</")) {
        advance(2);
        const char* at = cur_.ptr();
        std::string_view closing = name();
        if (closing != el.name)
          cur_.fail_at(expected_found("end tag </" + std::string(el.name) + ">", closing), at);
        skip_space();
        if (!next_is('>')) expected("'>' closing the end tag");
        advance(1);
        return;
      }
      if (starts("<!--")) {
        skip_past("-->", "comment");
        continue;
      }
      if (starts("<![CDATA[")) fail("CDATA sections are not supported in VTK files");
      if (starts("<?")) {
        skip_past("?>", "processing instruction");
        continue;
      }
      if (sink_) {
        open_.push_back(&el);
        XmlElement& child = scratch_[static_cast<std::size_t>(depth) + 1];
        parse_element(child, depth + 1);
        const bool consumed = (*sink_)(child, open_);
        open_.pop_back();
        if (!consumed) el.children.push_back(std::move(child));
      } else {
        el.children.emplace_back();
        parse_element(el.children.back(), depth + 1);
      }
      if (stopped_) return;
    }
  }

  io::Cursor cur_;
  const XmlSink* sink_ = nullptr;
  const XmlRowsHook* rows_ = nullptr;
  std::vector<XmlElement> scratch_;      // with a sink: the element being parsed, per depth
  std::vector<const XmlElement*> open_;  // with a sink: the open ancestors, root first
  XmlDocument* doc_ = nullptr;
  bool stopped_ = false;
};

}  // namespace

XmlDocument parse_xml(const io::Cursor& cursor) { return Parser(cursor, nullptr).parse(); }
XmlDocument parse_xml(const io::Cursor& cursor, const XmlSink& sink) { return Parser(cursor, &sink).parse(); }
XmlDocument parse_xml(const io::Cursor& cursor, const XmlSink& sink, const XmlRowsHook& rows) { return Parser(cursor, &sink, &rows).parse(); }

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace meshioplusplus::io
