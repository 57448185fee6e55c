/** Fair play's wire (issue 47): reports, the moderators' queue, marks. */
import { type Static, Type } from 'typebox';
import { Username } from './accounts.js';

const closed = { additionalProperties: false } as const;

export const REPORT_REASONS = ['cheat', 'boost', 'other'] as const;
export const ReportBody = Type.Object(
  {
    username: Username,
    reason: Type.Union(REPORT_REASONS.map((r) => Type.Literal(r))),
    text: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  closed,
);
export type ReportBody = Static<typeof ReportBody>;

export const ReportAccepted = Type.Object({ ok: Type.Literal(true) }, closed);

export const ModUsernameParams = Type.Object({ username: Username }, closed);
export const MarkBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, closed);

export const MarkResponse = Type.Object(
  {
    username: Type.String(),
    marked: Type.Boolean(),
    /** false: it was so already, nothing was recorded */
    changed: Type.Boolean(),
    /** victims refunded by this mark */
    refunds: Type.Integer({ minimum: 0 }),
    /** tournaments it was taken out of by this request (running ones, and the last 14 days' results) */
    tournaments: Type.Integer({ minimum: 0 }),
  },
  closed,
);

const Evidence = Type.Object({
  aggregate: Type.Unknown({
    description: "the account's aggregate (docs/fair-play.md), null before its first assessment",
  }),
  games: Type.Array(
    Type.Object({
      gameId: Type.String(),
      color: Type.String(),
      verdict: Type.String(),
      rule: Type.Union([Type.String(), Type.Null()]),
      speed: Type.String(),
      endedAt: Type.String(),
      signals: Type.Unknown(),
    }),
  ),
  reports: Type.Array(
    Type.Object({
      reporter: Type.String(),
      reason: Type.String(),
      text: Type.Union([Type.String(), Type.Null()]),
      at: Type.String(),
    }),
  ),
  relatedAccounts: Type.Array(Type.String()),
});

export const ModQueueResponse = Type.Object(
  {
    entries: Type.Array(
      Type.Object({
        username: Type.String(),
        playerId: Type.String(),
        verdict: Type.Union([Type.Literal('markable'), Type.Literal('reportable'), Type.Literal('fine')]),
        evidence: Evidence,
      }),
    ),
  },
  closed,
);
