"""relurl as the link stage of a Spark pipeline.

``links`` runs relurl on every WARC archive of a manifest and writes the
link graph as Parquet; ``hostgraph`` turns it into a host graph in
cc-webgraph's format. ``runner`` runs relurl on one archive, without Spark.
No URL is parsed or resolved here: relurl does that.
"""
