"""dpgpu figure scripts: read a results folder's CSV files and draw figures.

Modules, one concept each:
  errors    PlotError, the one exception the command turns into exit status 2
  results   reading summary.csv, metrics.csv, series.csv and context.json; plottable rows
  plotspec  FigureSpec and the plot: section of experiment.yaml
  select    filters, column names, case labels
  series    choosing the x column and grouping rows into plotted series
  style     colours, markers, labels and units
  figures   the registry of figure kinds, shared pieces, runtime and throughput
  fig_*     the metrics, phases, speedup and diagonal_time kinds
  cli       the command line (plots/dpgpu_plot.py calls cli.main)

Only figures and fig_* import Matplotlib, so that errors in the data are
reported the same way whether or not Matplotlib can be imported.
"""
