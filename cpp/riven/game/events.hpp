// The event log writer: events as JSON values, written as JSON Lines byte for byte as the Python
// writer (riven_env/game/events.py dumps_event; schema docs/event-log.md) writes them.
//
// Python writes json.dumps(clean_event(event), separators=(",", ":"), ensure_ascii=False):
// floats rounded to FLOAT_DIGITS decimals (round(), -0.0 as 0.0) and printed as repr() prints
// them (the shortest digits that read back, exponent form below 1e-4 and from 1e16), strings
// with json's escapes only (quote, backslash, control characters), everything else as is, keys
// in insertion order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "riven/game/state.hpp"

namespace riven::game {

inline constexpr int kFloatDigits = 4;  // riven_env/game/events.py FLOAT_DIGITS
/// Members an event is given room for: the four header fields and those most events set.
inline constexpr std::size_t kEventMembers = 14;

/// A JSON value of an event (null, bool, integer, float, string, list or object).
class JsonValue {
 public:
  /// Sink: what a discarding EventLog hands out; set and push on it keep nothing.
  enum class Kind : std::uint8_t { Null, Bool, Int, BigInt, Float, String, List, Object, Sink };

  JsonValue() = default;
  static JsonValue null() { return {}; }
  static JsonValue boolean(bool value);
  static JsonValue integer(std::int64_t value);
  /// An integer outside int64, as its decimal digits (Python ints have no bound).
  static JsonValue big_integer(std::string digits);
  static JsonValue number(double value);
  static JsonValue string(std::string value);
  static JsonValue list(std::vector<JsonValue> items = {});
  static JsonValue object();
  /// A value that swallows every member and item (EventLog::discarding's events).
  static JsonValue sink();

  [[nodiscard]] Kind kind() const { return kind_; }
  /// Room for `count` members or items (a value built member by member grows by doubling).
  void reserve_members(std::size_t count) {
    keys_.reserve(kind_ == Kind::Object ? count : 0);
    items_.reserve(count);
  }
  /// Append to a list.
  JsonValue& push(JsonValue item);
  /// Append a member to an object (keys keep insertion order; a repeated key replaces in place,
  /// as a Python dict does).
  JsonValue& set(std::string key, JsonValue value);
  [[nodiscard]] const std::vector<JsonValue>& items() const { return items_; }
  [[nodiscard]] const std::vector<std::string>& keys() const { return keys_; }
  // The scalar held (the game loop's Python seam reads events back as Python values).
  [[nodiscard]] bool as_bool() const { return bool_; }
  [[nodiscard]] std::int64_t as_int() const { return int_; }
  [[nodiscard]] double as_float() const { return float_; }
  [[nodiscard]] const std::string& text() const { return text_; }

  /// Append the JSON text of this value to `out`.
  void write(std::string& out) const;

 private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  std::int64_t int_ = 0;
  double float_ = 0.0;
  std::string text_;               // String, BigInt
  std::vector<JsonValue> items_;   // List items, Object values
  std::vector<std::string> keys_;  // Object keys
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
