"""The shape of every answer file: pydantic models checked before any checker runs (each puzzle names its
model, :attr:`powertwo.solvers.registry.Puzzle.answer`).

Every nested object (a jump step, a reverse move, a backend's run, a certificate, a call of
That's My Line's solver) is closed: an unknown field is refused with its path
(``steps[0].jumped``). Run facts are held to what a run can produce: ``seconds`` finite and at
least 0, ``workers`` at least 1, ``positions_searched`` at least 0, a jump ``proof`` an object
``{kind, bound, engine}``, That's My Line's ``stones`` at most the board's nodes. A top-level field the
puzzle does not know is refused by its checker, which keeps that list.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, Mapping

from pydantic import (
    BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationInfo, create_model, field_validator,
)

from powertwo.boards import Board
from powertwo.boards.jsonfile import schema_fault

from .fields import SolutionError

_CLOSED = ConfigDict(extra="forbid", strict=True)
_OPEN = ConfigDict(extra="allow", strict=True)

Seconds = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Node = Annotated[StrictInt | StrictStr, Field()]
Count = Annotated[StrictInt, Field(ge=0)]


class RunFacts(BaseModel):
    """Fields every answer file may carry about the run that made it."""

    model_config = _OPEN
    puzzle: StrictStr
    board: StrictStr | None = None
    board_fingerprint: StrictStr | None = None
    seconds: Seconds | None = None
    workers: Annotated[StrictInt, Field(ge=1, le=4096)] | None = None
    positions_searched: Count | None = None
    objective: StrictInt | None = None
    bound: StrictInt | None = None


class JumpStep(BaseModel):
    model_config = _CLOSED
    place: Node
    jumps: list[Node]


class ForwardAnswer(RunFacts):
    steps: list[JumpStep] = Field(max_length=10_000)


class ReverseMove(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    frm: Node = Field(alias="from")
    jumps: list[Node]


FREE_TEXT_PROOF = ("is free text (an answer file of an earlier version), which nothing can check: solve the "
                   "position again for a proof {kind, bound, engine}")
"""Why a jump answer's free-text ``proof`` is refused (by this shape and by the jump checker)."""


class JumpProof(BaseModel):
    """A reverse answer's proof of its bound: its kind and engine are judged by the jump checker
    (:mod:`powertwo.solvers.jump.proof` lists them)."""

    model_config = _CLOSED
    kind: StrictStr
    bound: Count
    engine: StrictStr


class ReverseAnswer(RunFacts):
    moves: list[ReverseMove] = Field(default=[], max_length=10_000)
    proof: JumpProof | None = None
    chain_steps: Count | None = None

    @field_validator("proof", mode="before")
    @classmethod
    def _no_free_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            raise ValueError(FREE_TEXT_PROOF)
        return value


class BackendRun(BaseModel):
    model_config = _CLOSED
    status: StrictStr | None = None
    objective: StrictInt | None = None
    bound: StrictInt | None = None
    seconds: Seconds | None = None


class Certificate(BaseModel):
    model_config = _CLOSED
    checker: StrictStr | None = None
    claim: StrictStr | None = None
    cnf: StrictStr | None = None
    cnf_sha256: StrictStr | None = None
    proof: StrictStr | None = None
    proof_lines: Count | None = None
    proof_sha256: StrictStr | None = None
    solver: StrictStr | None = None
    verdict: StrictStr | None = None


class LineAnswer(RunFacts):
    certificate: Certificate | None = None
    # each backend's run (``powertwo.solvers.lines.BACKENDS``): a closed object, never null (a run left
    # out reads as an empty one: this model only checks the file's shape)
    cp_sat: BackendRun = Field(default_factory=BackendRun, alias="cp-sat")
    sat: BackendRun = Field(default_factory=BackendRun)


class SolverCall(BaseModel):
    model_config = _CLOSED
    at_least: Count
    answer: StrictStr
    seconds: Seconds | None = None


class Split(BaseModel):
    model_config = _CLOSED
    light: Count
    dark: Count


class ThatsMyLineAnswer(RunFacts):
    stones: Count | StrictStr | None = None
    certificate: Certificate | None = None
    calls: list[SolverCall] | None = None
    optimal_splits: list[Split] | None = None
    proofs: dict[str, BackendRun] | None = None
    light_count: Count | None = None
    dark_count: Count | None = None

    @field_validator("stones")
    @classmethod
    def _supply(cls, value: int | str | None, info: ValidationInfo) -> int | str | None:
        nodes = (info.context or {}).get("nodes")
        if isinstance(value, int) and nodes is not None and value > nodes:
            raise ValueError(f"is {value}, more stones than the board has nodes ({nodes})")
        if isinstance(value, str) and value != "unlimited":
            raise ValueError("must be a number of stones or 'unlimited'")
        return value


def option_type(kind: str, words: tuple[str, ...]) -> Any:
    """The type of a recorded solve option's value in an answer file (:class:`powertwo.solvers.registry.Option`)."""
    word = Literal[words] if words else None
    simple: dict[str, Any] = {"choice": StrictStr, "int": Count, "float": Seconds, "bool": StrictBool,
                              "text": StrictStr, "node": Node, "file": StrictStr, "output": StrictStr,
                              "cores": Annotated[StrictInt, Field(ge=1)], "mib": Annotated[StrictInt, Field(ge=1)]}
    kind_type = simple.get(kind, Any)
    return kind_type | word if word is not None else kind_type


@functools.lru_cache(maxsize=None)
def answer_schema(answer: type[RunFacts], recorded: tuple[tuple[str, str, tuple[str, ...]], ...]) -> type[RunFacts]:
    """``answer`` with a field for each ``(name, kind, words)`` of a recorded option that it does
    not declare itself (optional: an answer file of an earlier version may lack it)."""
    fields: dict[str, Any] = {name: (option_type(kind, words) | None, None) for name, kind, words in recorded
                              if name not in answer.model_fields}
    if not fields:
        return answer
    return create_model(answer.__name__, __base__=answer, **fields)


def check_shape(data: Mapping[str, Any], where: str, model: type[RunFacts], board: Board | None = None) -> None:
    """Refuse (one :class:`SolutionError` naming the field's path) an answer file that does not fit
    ``model`` (``board``: the one it is judged on, whose size bounds its stones)."""
    from pydantic import ValidationError

    context = {"nodes": board.size} if board is not None else {}
    try:
        model.model_validate(data, context=context)
    except ValidationError as exc:
        raise SolutionError(schema_fault(exc, where)) from None
