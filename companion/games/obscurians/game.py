"""Obscurians as the game contract sees it (companion.games.contract.Game): what the session, the CLI and the UI
shell ask of this game, answered by the engine. The registry (companion/session/games.py) imports this module
only when the game is first needed."""
from __future__ import annotations

from companion.games.contract import Game, Outcome
from companion.games.errors import N_, IllegalAction, InvalidInput, Message, Term, Terms
from companion.games.obscurians.actions import Flip, Reroll, Roll, action_from_json, action_from_text
from companion.games.obscurians import vocabulary
from companion.games.obscurians.constants import FACE_DOWN, FACES, N_DICE, OPPOSITE
from companion.games.obscurians.movelog import face_term
from companion.games.obscurians.rules import RULES_VERSION, Rules
from companion.games.obscurians.rulings import RULINGS, values
from companion.games.obscurians.scoring import TEMPLATES_EN, score_table
from companion.games.obscurians.setup import Setup
from companion.games.obscurians.state import State, new_game
from companion.games.text import shown


def _usual_payment(state: State) -> str | None:
    """How a reroll nobody announced is paid: the round's free reroll while it lasts (Reroll Once), otherwise one
    chip, face down — the players never say which (table rule 5: hidden stays hidden)."""
    return None if state.event == "reroll_once" and not state.free_reroll_used else FACE_DOWN


def _numbers(indices) -> str:
    return ", ".join(str(i + 1) for i in sorted(indices))


def dice_faces(faces) -> Terms:
    """Dice faces as game words, in the dice pad's order (Steal, Donate, …), as the move log shows them."""
    return Terms(face_term(f) for f in sorted(faces, key=FACES.index))


def mission_term(mission: str) -> Term:
    return Term("mission", mission, mission.capitalize())


class Obscurians(Game):
    name = "obscurians"
    title = "Obscurians"
    min_players, max_players = 4, 7
    ui_plugin = "companion.ui.obscurians"
    rulings = RULINGS
    terms = vocabulary.TERMS
    msgids = (*vocabulary.EVENT_EFFECT.values(), *vocabulary.GOOD_SHORT.values(), *vocabulary.TAKE_CAP_VALUE.values())
    line_templates = TEMPLATES_EN
    rules_version = RULES_VERSION
    records_rules_version = True
    # Version 1: a Secure put 1 or 2 goods into the vault (before RULING obscurians-actions was decided).
    earlier_rules = {1: N_("recorded under an earlier ruling: Secure took one good")}
    unrecorded_rules_versions = (2, 1)

    # parsing: the game's own module functions
    setup_from_json = staticmethod(Setup.from_json)
    new_game = staticmethod(new_game)
    state_from_json = staticmethod(State.from_json)
    action_from_json = staticmethod(action_from_json)
    action_from_text = staticmethod(action_from_text)

    def players(self, setup: Setup) -> list[str]:
        return [name for name, _ in setup.players]

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def status(self, state: State) -> str:
        if state.phase == "over":
            return "over"
        if state.phase == "missions":
            return "missions to reveal"
        return f"round {state.round}"

    def summary(self, state: State) -> dict:
        result = state.score()
        names = {colour: name for name, colour in state.setup.players}
        return {
            "status": self.status(state),
            "turn": state.round,
            "active": state.name(state.active) if state.phase == "turn" else None,
            "winners": [names[c] for c in result.winners] if result else [],
            "totals": {p.name: p.total for p in result.players} if result else {},
        }

    def describe(self, state: State) -> str:
        names = [name for name, _ in state.setup.players]
        lines = [f"Obscurians, {len(names)} players, {self.status(state)}"]
        if state.phase in ("reveal", "turn"):
            lines.append(f"event: {state.event or '-'}; {names[state.active]} to play")
        for i, (name, colour) in enumerate(state.setup.players):
            goods = ", ".join(f"{good} {n}" for good, n in sorted(state.goods[i].items())) or "no goods"
            vault = ", ".join(f"{good} {n}" for good, n in sorted(state.secured[i].items()))
            lines.append(f"  {name} ({colour}): {goods}" + (f"; secured {vault}" if vault else ""))
        result = state.score()
        if result is not None:
            lines += ["", score_table(result).rstrip("\n")]  # the same itemised table as `companion score`
        return "\n".join(lines)

    # -- rules profile -----------------------------------------------------------------------------------------------
    # the game's own Rules and rulings.values
    default_rules = staticmethod(Rules)
    rules_from_json = staticmethod(Rules.from_json)
    rule_values = staticmethod(values)

    # -- end of game from a file -------------------------------------------------------------------------------------
    def _scored(self, data, rules: Rules):
        from companion.games.obscurians.end_json import parse_end
        from companion.games.obscurians.scoring import score

        if isinstance(data, dict) and data.get("game", self.name) != self.name:
            raise InvalidInput(f"game: this file is for {shown(data['game'])}, not {self.name}")
        return score(parse_end(data), rules)

    def score_file(self, data, rules: Rules) -> Outcome:
        return self._scored(data, rules)

    def score_text(self, data, rules: Rules) -> str:
        return score_table(self._scored(data, rules))

    def bgstats(self, data, rules: Rules, play_date: str, duration_min: int | None) -> dict:
        from companion.games.obscurians.bgstats import to_bgstats

        return to_bgstats(self._scored(data, rules), play_date, duration_min=duration_min)

    # -- sensors: the five henchmen dice as D6 smart dice (RULING obscurians-dice) ---------------------------------
    dice_roles = {"henchmen": N_DICE}

    def dice_action(self, state: State, role: str, faces, intent):
        if role != "henchmen" or state.phase != "turn" or state.chosen is not None:
            return None
        for pips in faces.values():
            if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
                raise IllegalAction.of("A henchmen die shows 1 to 6 pips, not {pips}", "RULING obscurians-dice",
                                       pips=shown(pips))
        symbol = {i: state.setup.rules.face_for_pips(p) for i, p in faces.items()}
        if state.dice is None:  # the turn's roll: all five dice
            if sorted(faces) != list(range(N_DICE)):
                raise IllegalAction.of("Only dice {numbers} were read: roll all {n} henchmen dice",
                                       numbers=_numbers(faces), n=N_DICE)
            return Roll(tuple(symbol[i] for i in range(N_DICE)))
        # In a Flip the Die round, dice that now show their opposite faces were turned over by hand (free), unless
        # the players announced a reroll; Undo takes it back if one of them really was thrown.
        if (intent is None and state.event == "flip_the_die" and faces
                and all(symbol[i] == OPPOSITE[state.dice[i]] for i in faces)):
            return Flip(tuple(sorted(faces)))
        # After the roll, dice thrown again are a reroll: of the dice the players announced, if they did.
        wanted = sorted((intent or {}).get("reroll") or faces)
        if sorted(faces) != wanted:
            raise IllegalAction.of("Dice {numbers} were thrown, but dice {wanted} were to be rerolled",
                                   numbers=_numbers(faces), wanted=_numbers(wanted))
        dice = tuple(sorted(faces))
        return Reroll(dice, tuple(symbol[i] for i in dice), (intent or {}).get("discard", _usual_payment(state)))

    def dice_question(self, state: State, role: str, action, intent):
        # The turn's roll and an announced reroll are what the table waits for; anything else thrown (a reroll
        # nobody announced, dice turned to their opposite faces) is asked about, so no chip is ever spent and no
        # die flipped behind the players' backs (table rule 8, docs/architecture.md).
        if isinstance(action, Roll) or (intent or {}).get("reroll"):
            return None
        if isinstance(action, Reroll):
            # the faces in the dice's order, each with its number: "dice 1, 4 again (Secure, Donate)"
            params = {"name": state.name(state.active), "numbers": _numbers(action.dice),
                      "faces": Terms(face_term(f) for f in action.faces)}
            if action.discard is None:
                return Message(N_("{name} rolled dice {numbers} again ({faces}): use this round's free reroll?"),
                                 params)
            if action.discard == FACE_DOWN:
                return Message(N_("{name} rolled dice {numbers} again ({faces}): discard a chip face down?"),
                                 params)
            return Message(N_("{name} rolled dice {numbers} again ({faces}): discard the {mission} chip?"),
                             {**params, "mission": mission_term(action.discard)})
        if isinstance(action, Flip):
            after = tuple(OPPOSITE[f] if i in action.dice else f for i, f in enumerate(state.dice))
            return Message(N_("{name} turned dice {numbers} over ({faces}): flip them?"),
                             {"name": state.name(state.active), "numbers": _numbers(action.dice),
                              "faces": Terms(face_term(after[i]) for i in action.dice)})
        return None

    def dice_words(self, state: State, action):
        name = state.name(state.active)
        if isinstance(action, Roll):
            return Message(N_("{name} rolled {faces}"), {"name": name, "faces": dice_faces(action.faces)})
        if isinstance(action, Reroll):
            faces = dice_faces(action.faces)
            if action.discard is None:
                return Message(N_("{name} rerolled for free: {faces}"), {"name": name, "faces": faces})
            if action.discard == FACE_DOWN:
                return Message(N_("{name} discarded a chip face down and rerolled: {faces}"),
                                 {"name": name, "faces": faces})
            return Message(N_("{name} discarded the {mission} chip and rerolled: {faces}"),
                             {"name": name, "mission": mission_term(action.discard), "faces": faces})
        if isinstance(action, Flip) and state.dice is not None:
            return Message(N_("{name} flipped dice: {faces}"),
                             {"name": name, "faces": dice_faces(OPPOSITE[state.dice[i]] for i in action.dice)})
        return None

    def bgstats_of(self, state: State, play_date: str, *, source_play_id: str | None = None) -> dict:
        from companion.games.obscurians.bgstats import to_bgstats

        return to_bgstats(state.score(), play_date, start_colour=state.setup.colour(state.setup.start),
                          source_play_id=source_play_id)

    def random_game(self, seed: int, n_players: int):
        from companion.games.obscurians.randplay import random_game

        return random_game(seed, n_players)


GAME = Obscurians()
