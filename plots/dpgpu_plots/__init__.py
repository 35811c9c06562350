"""dpgpu figure scripts: read a results folder's CSV files and draw figures.

Modules, one concept each:
  errors   PlotError, the one exception the command turns into exit status 2
  results  reading summary.csv and context.json, choosing plottable rows
  series   choosing the x column and grouping rows into plotted series
  style    colours, markers, labels and units
  figures  the registry of figure kinds (runtime, throughput, ...)
  cli      the command line (plots/dpgpu_plot.py calls cli.main)

Only results, series and style are free of Matplotlib, so that errors in the data are
reported the same way whether or not Matplotlib can be imported.
"""
