"""Board files (JSON data, validated on load by ..boardfile); a package so that they ship as package data."""
