"""What every timed search of the harness rests on: the clocks and timed
repeats (repeats), one named search and its outcome (named_search),
several sides measured interleaved (paired), and other revisions of knight
run in processes of their own (revisions) by the workers beside them
(ab_worker, instruction_worker), which import named_search as a top-level
module from this folder."""
