/**
 * The clock part of a form: its kind (byoyomi, Fischer, correspondence, none), then only the
 * fields that kind uses, each labelled. Read as strings, checked by clock-choice.ts.
 */
import { h } from '../dom.js';
import { CLOCK_KINDS, type ClockFields, type ClockKind, DEFAULT_FIELDS, FIELDS_OF } from '../shogi/clock-choice.js';

export interface ClockFieldsElement {
  readonly element: HTMLElement;
  fields(): ClockFields;
  /** sets the fields (a preset chosen elsewhere) */
  set(fields: ClockFields): void;
}

export function clockFields(prefix: string): ClockFieldsElement {
  const kind = h(
    'select',
    { id: `${prefix}-clock`, name: 'clock' },
    ...CLOCK_KINDS.map((k) => h('option', { value: k.kind, selected: k.kind === DEFAULT_FIELDS.kind }, k.label)),
  );
  const number = (name: Exclude<keyof ClockFields, 'kind'>, label: string, min: number, max: number) => {
    const input = h('input', {
      id: `${prefix}-${name}`,
      name,
      type: 'number',
      inputmode: 'numeric',
      min,
      max,
      step: 1,
      value: DEFAULT_FIELDS[name],
    });
    return { input, label: h('label', { class: 'clock-field', 'data-field': name }, `${label} `, input) };
  };
  const inputs = {
    minutes: number('minutes', 'Minutes', 0, 180),
    byoyomi: number('byoyomi', 'Byoyomi (s)', 0, 600),
    periods: number('periods', 'Periods', 1, 5),
    increment: number('increment', 'Increment (s)', 0, 180),
    days: number('days', 'Days per move', 1, 14),
  };
  const showFields = () => {
    const used = FIELDS_OF[kind.value as ClockKind];
    for (const [name, field] of Object.entries(inputs)) field.label.hidden = !used.includes(name as keyof ClockFields);
  };
  kind.addEventListener('change', showFields);
  showFields();
  return {
    element: h(
      'div',
      { class: 'clock-fields' },
      h('label', { for: `${prefix}-clock` }, 'Clock ', kind),
      ...Object.values(inputs).map((f) => f.label),
    ),
    fields: () => ({
      kind: kind.value as ClockKind,
      minutes: inputs.minutes.input.value,
      byoyomi: inputs.byoyomi.input.value,
      periods: inputs.periods.input.value,
      increment: inputs.increment.input.value,
      days: inputs.days.input.value,
    }),
    set(fields) {
      kind.value = fields.kind;
      for (const [name, field] of Object.entries(inputs)) field.input.value = fields[name as keyof typeof inputs];
      showFields();
    },
  };
}
