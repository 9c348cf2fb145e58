// One key's lifetime figure as the statistics page and its group lists show it. In a file of its own
// because both the page (stats-view.tsx) and the lists (key-list.ts) use it: files of src/web import
// downwards, never in a circle (biome's noImportCycles).
export type KeyFigure = {
  key: string;
  label: string;
  group: string;
  kind: string;
  unit: string;
  lifetime: {
    value: number;
    baseline: { day: string } | null;
    days: { first: string; last: string } | null;
    clamped?: true;
  };
};
