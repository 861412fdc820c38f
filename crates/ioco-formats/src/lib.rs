//! Interchange formats: Aldebaran .aut, Graphviz DOT (LTS and Mealy), JSON; diagnostics with locations
