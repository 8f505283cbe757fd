"""Files: reading record files of every form, cutting them into pieces for parallel work, and replacing
a file in one step.
"""
