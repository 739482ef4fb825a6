#include "riven/game/events.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <utility>

namespace riven::game {

JsonKey::JsonKey(std::string name) : owned_(std::make_unique<std::string>(std::move(name))) {
  view_ = *owned_;
  hash_ = hash_of(view_);
}

JsonKey::JsonKey(const JsonKey& other)
    : view_(other.view_),
      hash_(other.hash_),
      owned_(other.owned_ ? std::make_unique<std::string>(*other.owned_) : nullptr) {
  if (owned_) view_ = *owned_;
}

JsonKey& JsonKey::operator=(const JsonKey& other) {
  if (this != &other) *this = JsonKey(other);
  return *this;
}

JsonValue::JsonValue(const JsonValue& other) : JsonValue() { copy(other); }

JsonValue& JsonValue::operator=(const JsonValue& other) {
  if (this != &other) {
    JsonValue copied(other);
    destroy();
    take(std::move(copied));
  }
  return *this;
}

JsonValue& JsonValue::operator=(JsonValue&& other) noexcept {
  if (this != &other) {
    destroy();
    take(std::move(other));
  }
  return *this;
}

void JsonValue::release() noexcept {
  switch (kind_) {
    case Kind::String:
    case Kind::BigInt:
      if (long_text_) std::destroy_at(&long_);
      break;
    case Kind::List:
      std::destroy_at(&items_);
      break;
    case Kind::Object:
      std::destroy_at(&members_);
      break;
    default:
      break;
  }
  kind_ = Kind::Null;
  long_text_ = false;
}

void JsonValue::take_owned(JsonValue&& other) noexcept {
  switch (kind_) {
    case Kind::String:
    case Kind::BigInt:
      std::construct_at(&long_, std::move(other.long_));
      break;
    case Kind::List:
      std::construct_at(&items_, std::move(other.items_));
      break;
    case Kind::Object:
      std::construct_at(&members_, std::move(other.members_));
      break;
    default:
      break;
  }
  other.release();
}

void JsonValue::take(JsonValue&& other) noexcept {
  kind_ = other.kind_;
  long_text_ = other.long_text_;
  if (other.owns()) {
    take_owned(std::move(other));
  } else {
    short_ = other.short_;
    other.kind_ = Kind::Null;
  }
}

void JsonValue::copy(const JsonValue& other) {
  // This holds nothing (a Null).
  switch (other.kind_) {
    case Kind::String:
    case Kind::BigInt:
      set_text(other.text());
      break;
    case Kind::List:
      std::construct_at(&items_, other.items_);
      break;
    case Kind::Object:
      std::construct_at(&members_, other.members_);
      break;
    default:
      scalar_ = other.scalar_;
      break;
  }
  kind_ = other.kind_;
}

void JsonValue::set_text(std::string_view text) {
  // This holds nothing; the caller sets the kind.
  if (text.size() <= kShortText) {
    std::copy(text.begin(), text.end(), short_.chars.begin());
    short_.size = static_cast<std::uint8_t>(text.size());
    long_text_ = false;
  } else {
    std::construct_at(&long_, text);
    long_text_ = true;
  }
}

std::string_view JsonValue::text() const {
  if (kind_ != Kind::String && kind_ != Kind::BigInt) return {};
  if (long_text_) return long_;
  return {short_.chars.data(), short_.size};
}

const std::vector<JsonValue>& JsonValue::items() const {
  static const std::vector<JsonValue> kNone;
  return kind_ == Kind::List ? items_ : kNone;
}

const std::vector<JsonValue::Member>& JsonValue::members() const {
  static const std::vector<Member> kNone;
  return kind_ == Kind::Object ? members_ : kNone;
}

JsonValue JsonValue::big_integer(std::string_view digits) {
  JsonValue v;
  v.set_text(digits);
  v.kind_ = Kind::BigInt;
  return v;
}

JsonValue JsonValue::string(std::string_view value) {
  JsonValue v;
  v.set_text(value);
  v.kind_ = Kind::String;
  return v;
}

JsonValue JsonValue::list(std::vector<JsonValue> items) {
  JsonValue v;
  std::construct_at(&v.items_, std::move(items));
  v.kind_ = Kind::List;
  return v;
}

JsonValue JsonValue::object() {
  JsonValue v;
  std::construct_at(&v.members_);
  v.kind_ = Kind::Object;
  return v;
}

JsonValue JsonValue::sink() {
  JsonValue v;
  v.kind_ = Kind::Sink;
  return v;
}

JsonValue& JsonValue::push(JsonValue item) {
  if (kind_ == Kind::Sink) return *this;
  if (kind_ != Kind::List) {
    throw std::invalid_argument("JsonValue::push on a value that is not a list");
  }
  items_.push_back(std::move(item));
  return *this;
}

void JsonValue::reserve_members(std::size_t count) {
  if (kind_ == Kind::Object) members_.reserve(count);
  if (kind_ == Kind::List) items_.reserve(count);
}

JsonValue& JsonValue::set(JsonKey key, JsonValue value) {
  if (kind_ == Kind::Sink) return *this;
  if (kind_ != Kind::Object) {
    throw std::invalid_argument("JsonValue::set on a value that is not an object");
  }
  for (Member& member : members_) {
    if (member.key.same(key)) {
      member.value = std::move(value);
      return *this;
    }
  }
  members_.emplace_back(std::move(key), std::move(value));
  return *this;
}

double python_round(double value, int digits) {
  if (!std::isfinite(value)) {
    return value;
  }
  // Python rounds through the exact decimal expansion (dtoa mode 3) and reads the digits back;
  // glibc's printf is exact too and rounds ties to even on the exact binary value, as dtoa does.
  std::array<char, 512> buffer{};
  const int length = std::snprintf(buffer.data(), buffer.size(), "%.*f", digits, value);
  if (length < 0 || static_cast<std::size_t>(length) >= buffer.size()) {
    return value;  // beyond 1e500 cannot happen for a double; keep the value as is
  }
  return std::strtod(buffer.data(), nullptr);
}

std::string python_float_repr(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  // The shortest digits that read back (as Python's repr), from to_chars' scientific form.
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::scientific);
  std::string_view text(buffer.data(), static_cast<std::size_t>(result.ptr - buffer.data()));
  std::string out;
  if (!text.empty() && text.front() == '-') {
    out.push_back('-');
    text.remove_prefix(1);
  }
  const std::size_t e = text.find('e');
  std::string digits;
  for (const char c : text.substr(0, e)) {
    if (c != '.') {
      digits.push_back(c);
    }
  }
  int exponent = 0;
  const std::string_view exponent_text = text.substr(e + 1);
  std::from_chars(exponent_text.data() + (exponent_text.front() == '+' ? 1 : 0),
                  exponent_text.data() + exponent_text.size(), exponent);
  // Python's float_repr_style 'short': decpt is where the point falls after the first digit.
  const int decpt = exponent + 1;
  const auto ndigits = static_cast<int>(digits.size());
  if (decpt <= -4 || decpt > 16) {
    out.push_back(digits[0]);
    if (ndigits > 1) {
      out.push_back('.');
      out.append(digits, 1, std::string::npos);
    }
    const int shown = decpt - 1;
    out.push_back('e');
    out.push_back(shown < 0 ? '-' : '+');
    const int magnitude = shown < 0 ? -shown : shown;
    if (magnitude < 10) {
      out.push_back('0');
    }
    out.append(std::to_string(magnitude));
    return out;
  }
  if (decpt <= 0) {
    out.append("0.");
    out.append(static_cast<std::size_t>(-decpt), '0');
    out.append(digits);
    return out;
  }
  if (decpt >= ndigits) {
    out.append(digits);
    out.append(static_cast<std::size_t>(decpt - ndigits), '0');
    out.append(".0");
    return out;
  }
  out.append(digits, 0, static_cast<std::size_t>(decpt));
  out.push_back('.');
  out.append(digits, static_cast<std::size_t>(decpt), std::string::npos);
  return out;
}

std::string json_float(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value > 0 ? "Infinity" : "-Infinity";
  }
  return python_float_repr(value);
}

void write_json_string(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\f':
        out.append("\\f");
        break;
      default:
        if (byte < 0x20) {
          out.append("\\u00");
          out.push_back(kHex[byte >> 4]);
          out.push_back(kHex[byte & 0xF]);
        } else {
          out.push_back(c);  // ensure_ascii=False: UTF-8 passes through
        }
    }
  }
  out.push_back('"');
}

void JsonValue::write(std::string& out) const {
  switch (kind_) {
    case Kind::Null:
    case Kind::Sink:  // never stored in a log; written as nothing was kept
      out.append("null");
      return;
    case Kind::Bool:
      out.append(scalar_.boolean ? "true" : "false");
      return;
    case Kind::Int:
      out.append(std::to_string(scalar_.integer));
      return;
    case Kind::BigInt:
      out.append(text());
      return;
    case Kind::Float: {
      // events.py _clean: round to FLOAT_DIGITS, and a rounded zero is written as 0.0.
      const double rounded = python_round(scalar_.number, kFloatDigits);
      out.append(json_float(rounded == 0.0 ? 0.0 : rounded));
      return;
    }
    case Kind::String:
      write_json_string(text(), out);
      return;
    case Kind::List:
      out.push_back('[');
      for (std::size_t k = 0; k < items_.size(); ++k) {
        if (k > 0) {
          out.push_back(',');
        }
        items_[k].write(out);
      }
      out.push_back(']');
      return;
    case Kind::Object:
      out.push_back('{');
      for (std::size_t k = 0; k < members_.size(); ++k) {
        if (k > 0) {
          out.push_back(',');
        }
        write_json_string(members_[k].key.view(), out);
        out.push_back(':');
        members_[k].value.write(out);
      }
      out.push_back('}');
      return;
  }
}

EventLog EventLog::discarding() {
  EventLog log;
  log.discard_ = true;
  return log;
}

JsonValue& EventLog::emit(GameState& state, std::string_view type) {
  if (discard_) {
    ++state.seq;
    return sink_;
  }
  JsonValue event = JsonValue::object();
  event.reserve_members(kEventMembers);
  event.set("type", JsonValue::string(type));
  event.set("seq", JsonValue::integer(state.seq));
  event.set("round", JsonValue::integer(state.round));
  event.set("side", state.in_turn ? JsonValue::string(kSideNames[state.side]) : JsonValue::null());
  ++state.seq;
  events_.push_back(std::move(event));
  return events_.back();
}

std::vector<JsonValue> EventLog::drain() {
  std::vector<JsonValue> out;
  out.swap(events_);
  return out;
}

std::string dumps_event(const JsonValue& event) {
  std::string out;
  event.write(out);
  return out;
}

std::string dumps_events(const std::vector<JsonValue>& events) {
  std::string out;
  for (const JsonValue& event : events) {
    event.write(out);
    out.push_back('\n');
  }
  return out;
}

}  // namespace riven::game
