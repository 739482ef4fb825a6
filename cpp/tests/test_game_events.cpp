// The event writer: Python's json.dumps(clean_event(e), separators=(",", ":"),
// ensure_ascii=False) byte for byte (reference strings from CPython 3.11).
#include <memory>
#include <string>

#include "check.hpp"
#include "riven/game/events.hpp"

namespace {
using riven::game::JsonValue;
}

int main() {
  using riven::game::python_float_repr;
  using riven::game::python_round;
  RIVEN_CHECK(python_float_repr(0.1) == "0.1");
  RIVEN_CHECK(python_float_repr(1.0) == "1.0");
  RIVEN_CHECK(python_float_repr(-2.5) == "-2.5");
  RIVEN_CHECK(python_float_repr(1e16) == "1e+16");
  RIVEN_CHECK(python_float_repr(1e15) == "1000000000000000.0");
  RIVEN_CHECK(python_float_repr(1.5e-5) == "1.5e-05");
  RIVEN_CHECK(python_float_repr(0.0001) == "0.0001");
  RIVEN_CHECK(python_float_repr(123456.789) == "123456.789");
  RIVEN_CHECK(python_round(2.00005, 4) == 2.0001 || python_round(2.00005, 4) == 2.0);  // binary value decides
  RIVEN_CHECK(python_round(0.12345678, 4) == 0.1235);
  RIVEN_CHECK(python_round(-0.00001, 4) == 0.0);

  JsonValue event = JsonValue::object();
  event.set("type", JsonValue::string("move"));
  event.set("seq", JsonValue::integer(3));
  event.set("side", JsonValue::null());
  event.set("from", JsonValue::list({JsonValue::number(1.23456), JsonValue::number(-0.00001)}));
  event.set("ok", JsonValue::boolean(true));
  event.set("text", JsonValue::string("a\"b\\c\nd\x01 \xc3\xa9"));
  event.set("big", JsonValue::big_integer("1180591620717411303424"));
  event.set("seq", JsonValue::integer(4));  // a repeated key replaces in place, as a dict does
  RIVEN_CHECK(riven::game::dumps_event(event) ==
              "{\"type\":\"move\",\"seq\":4,\"side\":null,\"from\":[1.2346,0.0],\"ok\":true,"
              "\"text\":\"a\\\"b\\\\c\\nd\\u0001 \xc3\xa9\",\"big\":1180591620717411303424}");
  RIVEN_CHECK(riven::game::dumps_events({event, JsonValue::object()}) ==
              riven::game::dumps_event(event) + "\n{}\n");

  // A name made at run time (an event read from Python) is the literal's member when its text
  // is the same; a copy of an object keeps names of its own.
  JsonValue named = JsonValue::object();
  named.set("unit", JsonValue::integer(1));
  named.set(riven::game::JsonKey(std::string("unit")), JsonValue::integer(2));
  named.set(riven::game::JsonKey(std::string("made")), JsonValue::integer(3));
  const JsonValue copied = named;
  named.set("made", JsonValue::integer(4));
  RIVEN_CHECK(riven::game::dumps_event(copied) == "{\"unit\":2,\"made\":3}");
  RIVEN_CHECK(riven::game::dumps_event(named) == "{\"unit\":2,\"made\":4}");
  RIVEN_CHECK(copied.members()[0].key.literal() && !copied.members()[1].key.literal());

  // EventLog::emit writes GameState.emit's header and advances seq; drain empties the log.
  auto st = std::make_shared<riven::game::GameStatic>();
  st->owners = {"blue", "red"};
  riven::game::GameState state = riven::game::GameState::initial(st, 0);
  riven::game::EventLog log;
  log.emit(state, "round_start");
  state.in_turn = true;
  state.side = 1;
  log.emit(state, "turn_start").set("side", JsonValue::string("red")).set("round", JsonValue::integer(1));
  RIVEN_CHECK(state.seq == 2);
  const auto events = log.drain();
  RIVEN_CHECK(log.events().empty() && events.size() == 2);
  RIVEN_CHECK(riven::game::dumps_events(events) ==
              "{\"type\":\"round_start\",\"seq\":0,\"round\":1,\"side\":null}\n"
              "{\"type\":\"turn_start\",\"seq\":1,\"round\":1,\"side\":\"red\"}\n");

  // A discarding log advances seq as the keeping one does (the game is the same), keeps no
  // event, and its sink swallows members, items and later completion (EventLog::at).
  riven::game::EventLog quiet = riven::game::EventLog::discarding();
  RIVEN_CHECK(quiet.discards() && !log.discards());
  JsonValue& sunk = quiet.emit(state, "move").set("model", JsonValue::string("a")).set("path", JsonValue::list());
  RIVEN_CHECK(sunk.kind() == JsonValue::Kind::Sink && sunk.members().empty() && sunk.items().empty());
  quiet.emit(state, "morale");
  quiet.at(quiet.events().size() - 1).set("fled_off_table", JsonValue::boolean(true));
  RIVEN_CHECK(JsonValue::sink().push(JsonValue::integer(1)).items().empty());
  RIVEN_CHECK(state.seq == 4 && quiet.events().empty() && quiet.drain().empty());
  return RIVEN_TEST_RESULT();
}
