/** Select-to-pay: the chosen instalments in the order they were chosen, id -> amount. */
export type Selection = ReadonlyMap<string, number>;

export const noSelection: Selection = new Map();

/** What a row needs in select-to-pay mode: whether it can be chosen, and whether it is. */
export type RowSelection = {
  selectable: boolean;
  selected: boolean;
  onToggle: (selected: boolean) => void;
};
