"""The longest game the rules allow, proven, and the size of its record: every reader's
limit is derived from these bounds, so whatever a legal game writes can be read back.

The proof
---------

Count the turns of a game with ``p`` players ``t = 1, 2, …`` in the order they are
played, and let ``n_t`` be the number of dice turn ``t`` takes and ``D_t`` the number of
dice in the abandoned district when it starts.

1. **At most** ``9 p`` **turns** (:func:`max_turns`): every round gives each seat one
   turn, and the game is over after round 9 (:data:`~skyline.rules.state.ROUNDS`) at
   the latest.
2. **Turn** ``t`` **holds at most** ``3 t`` **dice** (:func:`max_dice`). A turn takes
   three dice from the yard or every die of the district, so ``n_t <= max(3, D_t)``.
   The district starts with three dice (``D_1 = 3``). Taking it refills it at once
   with three dice, to which only the dice abandoned later in that turn are added
   (``D_{t+1} = 3 + a_t``); a turn that takes from the yard adds its abandoned dice
   (``D_{t+1} = D_t + a_t``); and a turn abandons at most the dice it took
   (``a_t <= n_t``). By induction ``D_t <= 3 t``: ``D_{t+1} <= 3 + n_t <= 3 + D_t``
   after taking the district, ``D_{t+1} <= D_t + 3`` after taking from the yard. So
   ``n_t <= 3 t``. (The solo game has no district: ``n_t = 3``.)
3. **A turn of** ``n`` **dice has at most** ``2 n + 2`` **actions**
   (:func:`max_turn_actions`): one take; ``K`` resolutions (build, demolish, abandon),
   each removing at least one of the ``n`` dice, so ``K <= n``; ``R`` rolls, where a
   reroll needs a resolution since the roll before it and ending the turn needs one
   since the last roll, so ``R <= K``; and one end. (A solo turn that no die of a
   roll can resolve ends by itself after that roll, with a die left: ``K <= n - 1``,
   ``R <= K + 1``, fewer actions.) Undo leaves nothing in a record.

Hence a game has at most ``sum(2 * 3 t + 2 for t = 1 … 9 p)`` actions
(:func:`max_actions`): **4,068** with four players. The bound is reached: four players,
all nine rounds, every turn taking the district, rolling, then abandoning one die and
rerolling the others until the last die is abandoned, then ending the turn
(``tests/test_bounds.py`` plays it).

The record (:meth:`~skyline.rules.board.Board.record`) is its options, `` | `` and the
actions separated by spaces. A turn's dice have the ids ``0 … n - 1``. Its tokens
(:func:`max_turn_chars`):

- the take: ``tGGU`` or ``tD``, at most 4 characters; the end ``e``, 1;
- the rolls: ``r`` and the ids joined by ``.``, i.e. one character more than its ids'
  digits per die. The ``j``-th roll of the turn (``j = 0, 1, …``) comes after ``j``
  resolutions, so it rolls at most ``n - j`` dice; at most its ``n - j`` ids with the
  most digits;
- the resolutions: each die is resolved once. Abandoning costs the die's digits plus
  one (``a`` or ``.``); building ``b<die>@<column>`` and demolishing
  ``x<die>@c<index>`` at most the die's digits plus three plus the digits of the
  column or building index. A player's unfinished and completed buildings come from
  their start gift and the ground floors they built, so there are at most
  :func:`max_holdings` of them; every index has at most as many digits as that
  number less one.

Every token is followed by one space at most. The options (:func:`max_head_chars`):
each name of at most 24 characters is percent-encoded, at most 12 characters per
character (4 UTF-8 bytes of 3), the seed has at most 32 characters, the scenario at
most 9. The sum is :data:`MAX_RECORD_CHARS`.

>>> max_actions(1), max_actions(2), max_actions(3), max_actions(4)
(72, 1062, 2322, 4068)
>>> MAX_ACTIONS, MAX_RECORD_CHARS, max_holdings(4)
(4068, 242591, 541)
"""

from __future__ import annotations

from .state import MAX_NAME_LENGTH, MAX_PLAYERS, ROUNDS, SCENARIOS

#: Dice a yard take holds; also the dice the district starts with and refills to.
TAKE_DICE = 3
#: Most characters one name character may become in a record (4 UTF-8 bytes, ``%XX`` each).
ENCODED_CHAR = 12
MAX_SEED_CHARS = 32


def max_turns(players: int) -> int:
    """Turns in a game of ``players``: one per seat in each of the nine rounds.

    >>> max_turns(4)
    36
    """
    return ROUNDS * players


def max_dice(turn: int, players: int = MAX_PLAYERS) -> int:
    """Most dice the ``turn``-th turn of a game (counted from 1) can hold: ``3 turn``
    (see the module doc), three in the solo game.

    >>> max_dice(1), max_dice(36), max_dice(9, players=1)
    (3, 108, 3)
    """
    return TAKE_DICE if players == 1 else TAKE_DICE * turn


def max_turn_actions(dice: int) -> int:
    """Most actions of a turn that takes ``dice`` dice: take, a roll and a resolution
    per die, end.

    >>> max_turn_actions(3)
    8
    """
    return 2 * dice + 2


def max_actions(players: int) -> int:
    """Most actions a game of ``players`` can have (the proof is the module doc)."""
    return sum(max_turn_actions(max_dice(t, players)) for t in range(1, max_turns(players) + 1))


def seat_dice(players: int, order: int) -> int:
    """Most dice the turns of one player take together: the player who moves
    ``order``-th in each round (from 1) plays the turns ``order, order + p, …``.

    >>> seat_dice(4, 4)
    540
    """
    return sum(max_dice(t, players) for t in range(order, max_turns(players) + 1, players))


def max_holdings(players: int) -> int:
    """Most unfinished plus completed buildings one player can have: the start gift plus
    a ground floor for every die the player's own turns take."""
    return 1 + max(seat_dice(players, order) for order in range(1, players + 1))


def _digits(number: int) -> int:
    return len(str(number))


def max_turn_chars(dice: int, index_digits: int = 3) -> int:
    """Most characters of a turn's tokens, without the spaces between them (see the
    module doc); ``index_digits``: most digits of a column or building index.

    >>> max_turn_chars(3)
    38
    """
    id_chars = sorted((_digits(i) + 1 for i in range(dice)), reverse=True)
    rolls = sum(sum(id_chars[:k]) for k in range(1, dice + 1))
    resolutions = sum(c + 2 + index_digits for c in id_chars)
    return 4 + rolls + resolutions + 1


def max_head_chars(players: int) -> int:
    """Most characters of a record's options and the `` | `` after them.

    >>> max_head_chars(1)
    380
    """
    names = players * MAX_NAME_LENGTH * ENCODED_CHAR + (players - 1)
    scenario = max(len(s) for s in SCENARIOS)
    return (len("skyline1 players= seed= start=0 nine=0 scenario=") + names + MAX_SEED_CHARS
            + scenario + len(" | "))


def record_chars_bound(players: int) -> int:
    """Most characters of the record of a game of ``players`` (the proof is the module
    doc): options, then every turn's tokens and a space after each."""
    index_digits = _digits(max_holdings(players) - 1)
    turns = range(1, max_turns(players) + 1)
    tokens = sum(max_turn_chars(max_dice(t, players), index_digits) for t in turns)
    return max_head_chars(players) + tokens + max_actions(players)


#: Most actions of any game (four players); a record with more is refused unread.
MAX_ACTIONS = max_actions(MAX_PLAYERS)
#: Most characters of any game's record; a longer one is refused unread.
MAX_RECORD_CHARS = max(record_chars_bound(p) for p in range(1, MAX_PLAYERS + 1))
