"""Run the support-agent workflow against a good agent and five misbehaving ones.

Each misbehaving agent (misbehaving/*.workflow.yaml, scripted) breaks the team's
rules one way, and the outcome that states that rule fails. The judge here is a
stand-in that reads only what ``sees: [drafts]`` gives it (a real deployment points
``--judge-config`` at a model): it scores the drafted reply, not the agent's claim
about it, so the careless draft fails although the agent's final answer is fine.

    python examples/support_agent/run.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository root

from artemiskit import (  # noqa: E402
    ArtemisKit,
    JudgeSettings,
    TargetRequest,
    TargetResponse,
    Usage,
)
from examples.support_agent.support_scorers import SCORERS  # noqa: E402

#: Which requirements fail for each agent (the good one fails none).
EXPECTED = {
    "workflow.yaml": set(),
    "misbehaving/wrong-order.workflow.yaml": {
        "refunded-the-right-order",
        "looked-up-before-refunding",
    },
    "misbehaving/refund-too-much.workflow.yaml": {
        "never-refund-over-100",
        "refund-within-order-total",
    },
    "misbehaving/refund-over-total.workflow.yaml": {"refund-within-order-total"},
    "misbehaving/refund-before-lookup.workflow.yaml": {"looked-up-before-refunding"},
    "misbehaving/careless-draft.workflow.yaml": {"reply-apologises-with-amount"},
}


class DraftReviewJudge:
    """A deterministic judge: does the drafted reply apologise and give an amount?"""

    async def respond(self, request: TargetRequest) -> TargetResponse:
        context = request.messages[-1].content or ""
        assert "DRAFTS:" in context, "the judge sees the drafts"
        assert "FINAL ANSWER:" not in context, "and nothing it was not given"
        drafts = context.split("DRAFTS:", 1)[1].lower()
        good = "sorry" in drafts and "eur" in drafts
        return TargetResponse(
            text='{"score": %s}' % (0.9 if good else 0.2),
            usage=Usage(input_tokens=200, output_tokens=6),
        )


async def main() -> int:
    kit = ArtemisKit(scorers=SCORERS)
    judge = JudgeSettings(target=DraftReviewJudge(), provider="rules", model="drafts")
    mismatches = 0
    for name, expected in EXPECTED.items():
        result = await kit.run_workflow(workflow=HERE / name, judge=judge)
        requirements = result.record.task_verification.requirements
        failed = {r.id for r in requirements if r.status == "failed"}
        print(f"{name}: exit {result.record.exit_code}")
        for requirement in requirements:
            print(f"  {requirement.id}: {requirement.status} ({requirement.reason})")
        if failed != expected:
            mismatches += 1
            print(f"  expected to fail: {sorted(expected)}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
