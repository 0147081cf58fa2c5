import {
  CellStyleModule,
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  ColumnApiModule,
  ColumnAutoSizeModule,
  CsvExportModule,
  ExternalFilterModule,
  ModuleRegistry,
  RenderApiModule,
  RowApiModule,
  RowAutoHeightModule,
  RowSelectionModule,
  RowStyleModule,
  ScrollApiModule,
  TooltipModule,
  themeQuartz,
} from 'ag-grid-community';

// Only the features the desk uses, so the grid chunk stays small (AllCommunityModule is ~1 MB).
ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  ClientSideRowModelApiModule,
  RowApiModule,
  ColumnApiModule,
  ScrollApiModule,
  RowSelectionModule,
  RowStyleModule,
  CellStyleModule,
  TooltipModule,
  CsvExportModule,
  // The Orders grid fits its symbol and client columns to their content.
  ColumnAutoSizeModule,
  // The Orders grid's one filter: orders refused at intake hidden at the broker's choice.
  ExternalFilterModule,
  // refreshCells: the status cells redraw when the user may trade again (or no longer).
  RenderApiModule,
  // Service Status: rows as tall as their wrapped texts, so its tables fit the page without cutting them.
  RowAutoHeightModule,
]);

// Creating a grid sorts the registered modules' names with localeCompare, and the page's first
// localeCompare sets up the browser's collator (10-20 ms). Done here, in a task of its own while the
// blotter waits for its orders, it is not part of the grid's creation task (no long tasks).
window.setTimeout(() => 'a'.localeCompare('b'), 0);

/** Spec 000 §9: row and header height 35 px. */
const GRID_ROW_HEIGHT = 35;
/** Spec 000 §2: the multileg legs grids use 30 px rows. */
const LEGS_ROW_HEIGHT = 30;

/** The desk's grid look: dense, quiet borders, the theme's blue for focus and selection. */
export const deskGridTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  fontSize: 12,
  headerFontSize: 11,
  headerFontWeight: 600,
  headerTextColor: '#4a5a73',
  headerBackgroundColor: '#f1f4f9',
  foregroundColor: '#0f1b2d',
  backgroundColor: '#ffffff',
  borderColor: '#e1e6ee',
  rowBorder: { color: '#edf0f5' },
  columnBorder: false,
  accentColor: '#1656c5',
  selectedRowBackgroundColor: 'rgba(22, 86, 197, 0.13)',
  rowHoverColor: 'rgba(22, 86, 197, 0.05)',
  rowHeight: GRID_ROW_HEIGHT,
  headerHeight: GRID_ROW_HEIGHT,
  cellHorizontalPadding: 8,
  wrapperBorder: false,
  wrapperBorderRadius: 0,
  spacing: 4,
});

export const legsGridTheme = deskGridTheme.withParams({ rowHeight: LEGS_ROW_HEIGHT, headerHeight: LEGS_ROW_HEIGHT });
