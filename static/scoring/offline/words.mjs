// Generated from scoring/forms/words.py by `manage.py export_rules`: do not edit by hand.

export const PENALTY_WORDS = {"renege": "Renege", "renege_top_trump": "Renege holding a top trump", "under_trump": "Under-trump", "early_look": "Early look", "misdeal": "Misdeal", "points": "Points"};
export const OUTCOME_WORDS = {"played": "Played", "pack_exhausted": "Pack ran out (redeal)", "bunch": "Bunch (redeal)", "misdeal": "Misdeal"};
export const BEG_WORDS = {"stand": "Stand", "take_one": "Beg → take one", "run": "Beg → run the pack"};
export const NONE_WORDS = {"high": "No trump in play", "low": "No trump in play", "jack": "Not out"};
export const KEY_WORDS = {"turn_ups": "cards turned up", "held_by": "held by", "won_by": "won by"};
export const SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"};
export const SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"};
export const WON_WITH = {"kick": "on the kick", "gift": "on the gift", "penalty": "on a penalty", "high": "with high", "low": "with low", "jack": "with jack", "hang_jack": "with hang jack", "game": "with game", "capture": "with a capture"};
export const REFUSALS = [
  ["(\\w+) was turned up, so the jack of trumps cannot be in play \\(jack must be null\\)", "{card:1} was turned up, so the jack of trumps was not in play: tap {none=jack}"],
  ["high is null \\(no trump in play\\), so the jack of trumps cannot be in play \\(jack must be null\\)", "High is {none=high}, so the jack of trumps was not in play either: tap {none=jack}, or tap who held high"],
  ["low is (\\w+) but high is null: high and low are both null only when no trump was in play, else both are given", "Low is {side:1} but high is {none=high}: tap who held high, or {none=low} for both when no trump was in play"],
  ["high is (\\w+), so a trump was in play and low must be given too \\(the same side as high when only one trump was in play\\)", "High is {side:1}, so a trump was in play: tap a side for low too (the same side as high when only one trump was in play)"],
  ["with (\\w+) exactly one card is turned up \\(got (\\d+): (.*)\\); use beg run when the pack was run", "With {beg:1} only one card is turned up, not {2} ({cards:3}): tap {beg=run} if the pack was run, or take the extra card back with ⌫"],
  ["running the pack turns up at least two cards \\(got (\\d+): (.*)\\)", "{beg=run} turns up at least two cards, not {1} ({cards:2}): pick every card turned up, or tap {beg=stand} or {beg=take_one}"],
  ["(\\w+) is turned up twice", "{card:1} is turned up twice"],
  ["pack_exhausted needs beg run", "{outcome=pack_exhausted} needs {beg=run}: the pack runs out only when it is run"],
  ["pack_exhausted needs beg run \\(got (\\w+)\\)", "{outcome=pack_exhausted} needs {beg=run}, not {beg:1}: the pack runs out only when it is run"],
  ["this variant has no begging, so beg must be stand \\(got (\\w+)\\)", "This game has no begging, so {beg:1} cannot be recorded"],
  ["(\\d+) cards turned up \\((.*)\\), but with (\\d+) players the pack allows at most (\\d+)", "{1} cards turned up ({cards:2}), but with {3} players the pack allows at most {4}: take the extra cards back with ⌫"],
  ["the pack ran out, so every card turned up is of the first suit (\\w+), but (\\w+) is not \\((.*)\\)", "The pack ran out, so every card turned up is of the first suit, {suit:1}, but {card:2} is not ({cards:3}): if the run found a new suit, tap {outcome=played}"],
  ["the pack runs out after (\\d+) turn-ups with (\\d+) players, not (\\d+) \\((.*)\\)", "The pack runs out after {1} cards turned up with {2} players, not {3} ({cards:4}): pick every card turned up"],
  ["the pack is run until a new suit is turned, so (\\w+) \\(a new suit\\) must be the last card turned up \\((.*)\\)", "The pack is run until a new suit is turned, so {card:1} (a new suit) must be the last card turned up ({cards:2})"],
  ["the last card turned up \\((\\w+)\\) must be of a new suit, not the begged suit (\\w+) \\((.*)\\); if the pack ran out, the outcome is pack_exhausted", "The last card turned up ({card:1}) must be of a new suit, not {suit:2}, the suit begged ({cards:3}); if the pack ran out, tap {outcome=pack_exhausted}"],
  ["(.+) is not a card \\(write rank \\+ suit, e\\.g\\. JH, 10S; ranks A K Q J 10\\.\\.2, suits C D H S\\)", "{typed:1} is not a card: write the rank, then the suit (e.g. JH, 10S; ranks A K Q J 10 to 2, suits C D H S)"],
  ["take one not allowed: it would give (\\w+) the target \\((\\d+) \\+ (\\d+) = (\\d+)\\)", "{beg=take_one} is not allowed: it would give {side:1} the target ({2} + {3} = {4})"],
  ["a (\\w+) penalty needs a hand that was played \\(a misdeal has no play\\)", "{penalty:1} needs a hand that was played, and {outcome=misdeal} has no play: drop the penalty, or tap {outcome=played}"],
  ["a (\\w+) penalty needs a hand that was played \\(a redeal \\((\\w+)\\) has no play\\)", "{penalty:1} needs a hand that was played, and {outcome:2} has no play: drop the penalty, or tap {outcome=played}"],
  ["a (\\w+) penalty needs a hand that was played \\(take one ends the hand in this variant \\(the same dealer deals again\\)\\)", "{penalty:1} needs a hand that was played, and in this game {beg=take_one} ends the hand (the same dealer deals again): drop the penalty"],
  ["card-point totals add up to (\\d+), more than the (\\d+) in the pack", "The card points add up to {1}, more than the {2} in the pack"],
  ["(\\w+)'s card-point total must be a whole number of 0 or more \\(got (.*)\\)", "{whose:1} card points must be a whole number of 0 or more, not {typed:2}"],
  ["capture (\\d+): side is (.*), which is not a side in this game \\(sides: (.*)\\)", "Capture {1}: {typed:2} is not a side in this game (write {labels:3})"],
  ["(\\w+) is not a trump \\(trumps are (\\w+)\\), so it does not score", "{card:1} is not a trump (trumps are {suit:2}), so it does not score"],
  ["(\\w+) is captured twice", "{card:1} is captured twice"],
  ["(\\w+) was turned up, so it is not in play and cannot be captured", "{card:1} was turned up, so it is not in play and cannot be captured"],
  ["(\\w+) does not score when captured \\(scoring trumps: (.*)\\)", "{card:1} does not score when captured (scoring trumps: {2})"],
  ["the game was already won by (\\w+) in hand (\\d+); no hand can follow", "{side:1} already won the game in hand {2}; no hand can follow"],
  ["with this correction, hand (\\d+) is refused: (.*)\\. Undo the hands after hand (\\d+) first if this correction is right\\.", "With this correction, hand {1} is refused: {message:2}. Undo the hands after hand {3} first if this correction is right"],
];
export const SWAPS = [
  ["\\((\\w+) must be null\\)", "(tap {none:1})"],
  ["\\b(\\w+) must be null\\b", "tap {none:1}"],
  ["\\b(high|low) is null\\b", "{1} is {none:1}"],
  ["\\bnull\\b", "{none}"],
  ["\\(got ([^()]*)\\)", "(not {typed:1})"],
  ["\\b([a-z]+(?:_[a-z]+)+)\\b", "{word:1}"],
];
