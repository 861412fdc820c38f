//! Testing as a game: arenas, attractors, joker games, test purposes
