// The event log writer: events as JSON values, written as JSON Lines byte for byte as the Python
// writer (riven_env/game/events.py dumps_event; schema docs/event-log.md) writes them.
//
// Python writes json.dumps(clean_event(event), separators=(",", ":"), ensure_ascii=False):
// floats rounded to FLOAT_DIGITS decimals (round(), -0.0 as 0.0) and printed as repr() prints
// them (the shortest digits that read back, exponent form below 1e-4 and from 1e16), strings
// with json's escapes only (quote, backslash, control characters), everything else as is, keys
// in insertion order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "riven/game/state.hpp"

namespace riven::game {

inline constexpr int kFloatDigits = 4;  // riven_env/game/events.py FLOAT_DIGITS
/// Members an event is given room for: the four header fields and those most events set.
inline constexpr std::size_t kEventMembers = 14;

/// An object member's name: a string literal, held by address (nothing copied, and a
/// conversion can tell two keys apart by their address), or a name made at run time (an event
/// read from Python), held by the key itself.
class JsonKey {
 public:
  /// A literal (consteval: the pointer is a constant expression, so it names an object of
  /// static storage duration, which outlives every event).
  consteval JsonKey(const char* literal)  // NOLINT(google-explicit-constructor)
      : view_(literal), hash_(hash_of(view_)) {}
  /// A name made at run time.
  explicit JsonKey(std::string name);
  JsonKey(const JsonKey& other);
  JsonKey& operator=(const JsonKey& other);
  JsonKey(JsonKey&&) noexcept = default;
  JsonKey& operator=(JsonKey&&) noexcept = default;
  ~JsonKey() = default;

  [[nodiscard]] std::string_view view() const { return view_; }
  /// Whether the name is a literal (its address is the same for every event that uses it).
  [[nodiscard]] bool literal() const { return owned_ == nullptr; }
  /// Whether the two name the same member (the hash first: an object's names mostly differ).
  [[nodiscard]] bool same(const JsonKey& other) const { return hash_ == other.hash_ && view_ == other.view_; }

 private:
  // FNV-1a, made at compile time for a literal: set() tells a new member from a repeated one
  // by one comparison, not by comparing texts.
  static constexpr std::uint32_t hash_of(std::string_view text) {
    std::uint32_t h = 2166136261U;
    for (const char c : text) h = (h ^ static_cast<std::uint8_t>(c)) * 16777619U;
    return h;
  }

  std::string_view view_;
  std::uint32_t hash_ = 0;
  std::unique_ptr<std::string> owned_;  // a name made at run time; view_ points into it
};

/// A JSON value of an event (null, bool, integer, float, string, list or object).
///
/// Laid out small (40 bytes): the kind, then one payload in a union (a scalar, a short string
/// held inline, a long string, a list's items or an object's members). An event of a whole game
/// is built, moved into its log and freed thousands of times a game; a value that carried a
/// string and two vectors side by side paid for all three at every step.
class JsonValue {
 public:
  /// Sink: what a discarding EventLog hands out; set and push on it keep nothing.
  enum class Kind : std::uint8_t { Null, Bool, Int, BigInt, Float, String, List, Object, Sink };
  /// An object's member, in insertion order.
  struct Member;

  JsonValue() noexcept : scalar_{.integer = 0} {}
  JsonValue(const JsonValue& other);
  // Inline, with the scalar and short-text kinds copied as they are: each member of an event is
  // moved at least once and its moved-from husk destroyed.
  JsonValue(JsonValue&& other) noexcept : short_(other.short_) {
    kind_ = other.kind_;
    long_text_ = other.long_text_;
    if (other.owns()) {
      take_owned(std::move(other));
    } else {
      other.kind_ = Kind::Null;
    }
  }
  JsonValue& operator=(const JsonValue& other);
  JsonValue& operator=(JsonValue&& other) noexcept;
  ~JsonValue() {
    if (owns()) release();
  }

  static JsonValue null() { return {}; }
  static JsonValue boolean(bool value) {
    JsonValue v;
    v.kind_ = Kind::Bool;
    v.scalar_.boolean = value;
    return v;
  }
  static JsonValue integer(std::int64_t value) {
    JsonValue v;
    v.kind_ = Kind::Int;
    v.scalar_.integer = value;
    return v;
  }
  /// An integer outside int64, as its decimal digits (Python ints have no bound).
  static JsonValue big_integer(std::string_view digits);
  static JsonValue number(double value) {
    JsonValue v;
    v.kind_ = Kind::Float;
    v.scalar_.number = value;
    return v;
  }
  static JsonValue string(std::string_view value);
  static JsonValue list(std::vector<JsonValue> items = {});
  static JsonValue object();
  /// A value that swallows every member and item (EventLog::discarding's events).
  static JsonValue sink();

  [[nodiscard]] Kind kind() const { return kind_; }
  /// Room for `count` members (an object) or items (a list): a value built member by member
  /// grows by doubling.
  void reserve_members(std::size_t count);
  /// Append to a list.
  JsonValue& push(JsonValue item);
  /// Append a member to an object (keys keep insertion order; a repeated key replaces in place,
  /// as a Python dict does).
  JsonValue& set(JsonKey key, JsonValue value);
  /// A list's items (empty for any other kind).
  [[nodiscard]] const std::vector<JsonValue>& items() const;
  /// An object's members (empty for any other kind).
  [[nodiscard]] const std::vector<Member>& members() const;
  // The scalar held (the game loop's Python seam reads events back as Python values).
  [[nodiscard]] bool as_bool() const { return kind_ == Kind::Bool && scalar_.boolean; }
  [[nodiscard]] std::int64_t as_int() const { return kind_ == Kind::Int ? scalar_.integer : 0; }
  [[nodiscard]] double as_float() const { return kind_ == Kind::Float ? scalar_.number : 0.0; }
  /// A string's text, or a big integer's digits (empty for any other kind).
  [[nodiscard]] std::string_view text() const;

  /// Append the JSON text of this value to `out`.
  void write(std::string& out) const;

 private:
  union Scalar {
    bool boolean;
    std::int64_t integer;
    double number;
  };
  static constexpr std::size_t kShortText = 31;
  struct ShortText {
    std::array<char, kShortText> chars;
    std::uint8_t size;
  };

  // Whether the payload owns memory (a long string, a list, an object).
  [[nodiscard]] bool owns() const {
    return kind_ == Kind::List || kind_ == Kind::Object || ((kind_ == Kind::String || kind_ == Kind::BigInt) && long_text_);
  }
  // Frees an owning payload (the value is then a Null).
  void release() noexcept;
  void destroy() noexcept {
    if (owns()) release();
    kind_ = Kind::Null;
  }
  // Moves `other`'s owning payload into this (kind already copied); `other` is left a Null.
  void take_owned(JsonValue&& other) noexcept;
  // Builds this (holding nothing) from `other`'s payload, moved; `other` is left a Null.
  void take(JsonValue&& other) noexcept;
  void copy(const JsonValue& other);
  void set_text(std::string_view text);

  Kind kind_ = Kind::Null;
  bool long_text_ = false;  // a String or BigInt held in long_ (else in short_)
  union {
    Scalar scalar_;
    ShortText short_;
    std::string long_;
    std::vector<JsonValue> items_;
    std::vector<Member> members_;
  };
};

struct JsonValue::Member {
  JsonKey key;
  JsonValue value;
};

/// Python's round(value, digits) for a double (correctly rounded; non-finite values unchanged).
double python_round(double value, int digits);
/// Python's repr(value) for a double ("0.5", "1e-05", "1e+16", "inf", "nan").
std::string python_float_repr(double value);
/// json.dumps's text of a float: repr, with NaN, Infinity and -Infinity for non-finite values.
std::string json_float(double value);
/// Append json.dumps(text, ensure_ascii=False) (quotes included) to `out`.
void write_json_string(std::string_view text, std::string& out);

/// The events a game records between two drains (GameState._new_events and emit): kept beside
/// the state, not in it, so that copying a state copies no events (Python's copy() starts its
/// copy with none).
class EventLog {
 public:
  EventLog() = default;
  /// A log that keeps no event (a search's step, a batched env whose events nobody reads):
  /// emit still advances the state's seq, as it must for the game to be the same, but hands
  /// back a sink, so that no event is built, stored or freed.
  static EventLog discarding();
  [[nodiscard]] bool discards() const { return discard_; }
  /// GameState.emit: a new event {"type", "seq", "round", "side"} (side null between turns),
  /// the state's seq advanced; the caller sets the event's own fields on the returned object
  /// (a field named like a header one replaces it in place, as the Python dict does).
  JsonValue& emit(GameState& state, std::string_view type);
  /// GameState.drain_events: the events since the last drain, and forget them.
  std::vector<JsonValue> drain();
  [[nodiscard]] const std::vector<JsonValue>& events() const { return events_; }
  /// The k-th event since the last drain, to complete it later (effects.morale_test sets
  /// fled_off_table once the flight is known, as the Python dict is updated in place).
  /// (A discarding log answers its sink for every k.)
  JsonValue& at(std::size_t k) { return discard_ ? sink_ : events_.at(k); }

 private:
  std::vector<JsonValue> events_;
  bool discard_ = false;
  JsonValue sink_ = JsonValue::sink();
};

/// One JSON line of an event (no trailing newline): dumps_event(event).
std::string dumps_event(const JsonValue& event);
/// The JSON Lines text of `events` (one line each, each ending in "\n"), as write_jsonl writes.
std::string dumps_events(const std::vector<JsonValue>& events);

}  // namespace riven::game
