"""How a new statement relates to a stored one: the pair decision of capture (SPEC §5.1).

Pure and deterministic. `relate(old, new)` reads both statements (`slots.analyze`, `subjects.side`) and returns a
`Relation`:

- `unrelated`: not about the same subject (too little in common, or about another subject that has its own value:
  "Atlas staging uses Postgres 15" / "Orbit staging uses MySQL 8");
- `restatement`: the same claim: same subject, same polarity, the same values in every slot, nothing added;
- `compatible`: the same subject, nothing contradicts, but one side adds detail (kept as its own record);
- `conflict` with a type: `direct_negation`, `mutually_exclusive`, `quantitative_drift`,
  `decision_supersession`, `source_disagreement`;
- `possible`: the same subject, something differs, but no type fits confidently (a hedged claim, a difference only
  in a name or a place that may be the subject rather than a value). A person sees it marked as such.

Each relation carries a confidence in [0, 1], the subject score and a one-line reason. The thresholds are in
`decision` and `agreement`; docs/decisions.md explains them. A differing source alone never makes a conflict:
`source_disagreement` needs a differing value too.

The modules: `agreement` (whether the values of two statements agree, slot by slot), `polarity` (flips, opposite
states, change cues, "from X to Y") and `decision` (the subject score, the differences counted by dimension, the
relation). Other modules import from the package, not from its modules.
"""

from .decision import CONFLICT_TYPES, KINDS, Relation, Statement, describe, relate

__all__ = ["CONFLICT_TYPES", "KINDS", "Relation", "Statement", "describe", "relate"]
